-- Housekeeping (lib/db/housekeeping.ts) removes clients never connected: it looks for grants and codes
-- by client, and each client it deletes cascades to them, both by index instead of reading whole tables.
CREATE INDEX "connected_apps_client_idx" ON "connected_apps" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "authorization_codes_client_idx" ON "authorization_codes" USING btree ("client_id");