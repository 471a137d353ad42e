CREATE TABLE "post_metrics" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"draft_type" text NOT NULL,
	"draft_id" uuid NOT NULL,
	"window" text NOT NULL,
	"collected_at" timestamp with time zone NOT NULL,
	"impressions" integer,
	"likes" integer,
	"replies" integer,
	"reposts" integer,
	"clicks" integer,
	"note" text
);
--> statement-breakpoint
ALTER TABLE "post_drafts" ADD COLUMN "metrics_next" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "post_drafts" ADD COLUMN "metrics_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "post_drafts" ADD COLUMN "metrics_done" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "metrics_next" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "metrics_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "metrics_done" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "allowance_periods" ADD COLUMN "x_reads_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "post_metrics" ADD CONSTRAINT "post_metrics_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_metrics_draft_idx" ON "post_metrics" USING btree ("user_id","draft_type","draft_id","collected_at");--> statement-breakpoint
CREATE INDEX "post_drafts_metrics_due_idx" ON "post_drafts" USING btree ("metrics_due_at") WHERE status = 'published' and not metrics_done;--> statement-breakpoint
CREATE INDEX "tweet_drafts_metrics_due_idx" ON "tweet_drafts" USING btree ("metrics_due_at") WHERE status = 'published' and not metrics_done;