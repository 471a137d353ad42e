-- A tweet's search vector takes every part of its thread; dropping the column drops its index, made again here.
ALTER TABLE "tweet_drafts" drop column "search";--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', coalesce(title, '') || ' ' || coalesce(body, '')) || to_tsvector('english', jsonb_path_query_array(thread, '$[*].text'))) STORED;--> statement-breakpoint
CREATE INDEX "tweet_drafts_search_idx" ON "tweet_drafts" USING gin ("search") WITH (fastupdate=false);
