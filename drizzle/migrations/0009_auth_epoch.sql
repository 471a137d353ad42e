-- The authentication epoch: one counter that moves, in the same transaction, with every change
-- to what a token lookup reads (tokens, their apps and clients, users), whoever makes it (this
-- service, another process, the admin CLI, psql). A server on PostgreSQL reuses a token's row
-- only while the counter it was read with still stands (lib/domain/tokens.ts). The triggers run
-- before the statement, so a transaction takes the counter's lock before any row lock of these
-- tables. connected_apps leaves out last_used_at (bookkeeping written by token lookups
-- themselves); a test keeps that column list complete.
CREATE TABLE "auth_epoch" ("only_row" boolean PRIMARY KEY DEFAULT true CHECK ("only_row"), "n" bigint NOT NULL);--> statement-breakpoint
INSERT INTO "auth_epoch" VALUES (true, 0);--> statement-breakpoint
CREATE FUNCTION "bump_auth_epoch"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "auth_epoch" SET "n" = "n" + 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "tokens_auth_epoch" BEFORE UPDATE OR DELETE OR TRUNCATE ON "tokens" FOR EACH STATEMENT EXECUTE FUNCTION "bump_auth_epoch"();--> statement-breakpoint
CREATE TRIGGER "users_auth_epoch" BEFORE UPDATE OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "bump_auth_epoch"();--> statement-breakpoint
CREATE TRIGGER "oauth_clients_auth_epoch" BEFORE UPDATE OR DELETE OR TRUNCATE ON "oauth_clients" FOR EACH STATEMENT EXECUTE FUNCTION "bump_auth_epoch"();--> statement-breakpoint
CREATE TRIGGER "connected_apps_auth_epoch" BEFORE UPDATE OF "id", "user_id", "client_id", "scopes", "created_at", "revoked_at", "trusts_forms" OR DELETE OR TRUNCATE ON "connected_apps" FOR EACH STATEMENT EXECUTE FUNCTION "bump_auth_epoch"();
