-- Housekeeping (lib/db/housekeeping.ts) finds expired rows by index instead of reading whole tables,
-- and a reused authorization code finds the tokens it issued the same way.
CREATE INDEX "tokens_code_idx" ON "tokens" USING btree ("code_id") WHERE "tokens"."code_id" is not null;--> statement-breakpoint
CREATE INDEX "tokens_expires_idx" ON "tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "elicitations_expires_idx" ON "elicitations" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "authorization_codes_expires_idx" ON "authorization_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "mcp_tasks_expires_idx" ON "mcp_tasks" USING btree ("expires_at");