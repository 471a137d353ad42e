ALTER TABLE "post_drafts" ADD COLUMN "first_comment" text;--> statement-breakpoint
ALTER TABLE "post_drafts" ADD COLUMN "first_comment_status" text;--> statement-breakpoint
ALTER TABLE "post_drafts" ADD COLUMN "first_comment_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "post_drafts" ADD COLUMN "first_comment_post_id" text;--> statement-breakpoint
ALTER TABLE "post_drafts" ADD COLUMN "first_comment_url" text;--> statement-breakpoint
ALTER TABLE "post_drafts" ADD COLUMN "first_comment_reason" text;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "first_comment" text;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "first_comment_status" text;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "first_comment_claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "first_comment_post_id" text;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "first_comment_url" text;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "first_comment_reason" text;--> statement-breakpoint
CREATE INDEX "post_drafts_comment_due_idx" ON "post_drafts" USING btree ("first_comment_status") WHERE first_comment_status in ('pending', 'posting');--> statement-breakpoint
CREATE INDEX "tweet_drafts_comment_due_idx" ON "tweet_drafts" USING btree ("first_comment_status") WHERE first_comment_status in ('pending', 'posting');