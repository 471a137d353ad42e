ALTER TABLE "auth_accounts" ADD COLUMN "post_allowance" jsonb;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "frames" integer;