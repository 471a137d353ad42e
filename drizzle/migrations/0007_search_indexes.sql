DROP INDEX "post_drafts_search_idx";--> statement-breakpoint
DROP INDEX "tweet_drafts_search_idx";--> statement-breakpoint
DROP INDEX "ideas_search_idx";--> statement-breakpoint
DROP INDEX "articles_search_idx";--> statement-breakpoint
DROP INDEX "series_search_idx";--> statement-breakpoint
CREATE INDEX "post_drafts_search_idx" ON "post_drafts" USING gin ("search") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "tweet_drafts_search_idx" ON "tweet_drafts" USING gin ("search") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "ideas_search_idx" ON "ideas" USING gin ("search") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "articles_search_idx" ON "articles" USING gin ("search") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "series_search_idx" ON "series" USING gin ("search") WITH (fastupdate=false);