CREATE TABLE "elicitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"approval_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"app_id" uuid NOT NULL,
	"session" text NOT NULL,
	"tool_request_id" jsonb NOT NULL,
	"mode" text NOT NULL,
	"secret_hash" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "connected_apps" ADD COLUMN "trusts_forms" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "post_drafts" ADD COLUMN "approved_content_hash" text;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "approved_content_hash" text;--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "image_url" text;--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "proposed" jsonb;--> statement-breakpoint
ALTER TABLE "elicitations" ADD CONSTRAINT "elicitations_approval_id_approvals_id_fk" FOREIGN KEY ("approval_id") REFERENCES "public"."approvals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elicitations" ADD CONSTRAINT "elicitations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "elicitations" ADD CONSTRAINT "elicitations_app_id_connected_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."connected_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "elicitations_user_status_idx" ON "elicitations" USING btree ("user_id","status");