ALTER TABLE "users" ADD COLUMN "onboarded_at" timestamp with time zone;--> statement-breakpoint
-- Accounts already in use keep going as they were: only the owner a first start makes from now on is sent through onboarding.
UPDATE "users" SET "onboarded_at" = "account_completed_at" WHERE "account_completed_at" IS NOT NULL;
