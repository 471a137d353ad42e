ALTER TABLE "post_drafts" ADD COLUMN "receipt_next" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "post_drafts" ADD COLUMN "receipt_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "post_drafts" ADD COLUMN "receipt_done" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "receipt_next" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "receipt_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "receipt_done" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "post_drafts_receipt_due_idx" ON "post_drafts" USING btree ("receipt_due_at") WHERE status = 'published' and not receipt_done;--> statement-breakpoint
CREATE INDEX "tweet_drafts_receipt_due_idx" ON "tweet_drafts" USING btree ("receipt_due_at") WHERE status = 'published' and not receipt_done;--> statement-breakpoint
-- Posts published before receipts existed are not read back all at once.
UPDATE "post_drafts" SET "receipt_done" = true WHERE "published_at" IS NOT NULL;--> statement-breakpoint
UPDATE "tweet_drafts" SET "receipt_done" = true WHERE "published_at" IS NOT NULL;
