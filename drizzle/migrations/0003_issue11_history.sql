CREATE TABLE "draft_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"draft_type" text NOT NULL,
	"draft_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor" text NOT NULL,
	"app_name" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "draft_events" ADD CONSTRAINT "draft_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "draft_events_draft_idx" ON "draft_events" USING btree ("draft_id","created_at");