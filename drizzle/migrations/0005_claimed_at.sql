ALTER TABLE "post_drafts" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
UPDATE "post_drafts" SET "claimed_at" = "updated_at" WHERE "status" = 'publishing';--> statement-breakpoint
UPDATE "tweet_drafts" SET "claimed_at" = "updated_at" WHERE "status" = 'publishing';
