CREATE TABLE "publishing_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"kind" text NOT NULL,
	"external_id" text NOT NULL,
	"name" text,
	"handle" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"provider" text NOT NULL,
	"provider_account_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "post_drafts" ADD COLUMN "account_id" uuid;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD COLUMN "account_id" uuid;--> statement-breakpoint
ALTER TABLE "publishing_accounts" ADD CONSTRAINT "publishing_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publishing_accounts" ADD CONSTRAINT "publishing_accounts_provider_provider_account_id_auth_accounts_provider_provider_account_id_fk" FOREIGN KEY ("provider","provider_account_id") REFERENCES "public"."auth_accounts"("provider","provider_account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "publishing_accounts_user_external_idx" ON "publishing_accounts" USING btree ("user_id","platform","kind","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "publishing_accounts_default_idx" ON "publishing_accounts" USING btree ("user_id","platform") WHERE is_default;--> statement-breakpoint
CREATE INDEX "publishing_accounts_connection_idx" ON "publishing_accounts" USING btree ("provider","provider_account_id");--> statement-breakpoint
ALTER TABLE "post_drafts" ADD CONSTRAINT "post_drafts_account_id_publishing_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."publishing_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tweet_drafts" ADD CONSTRAINT "tweet_drafts_account_id_publishing_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."publishing_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Each network connection made before several accounts existed becomes its network's default account.
INSERT INTO "publishing_accounts" ("user_id", "platform", "kind", "external_id", "name", "handle", "is_default", "provider", "provider_account_id")
SELECT "user_id", CASE "provider" WHEN 'linkedin' THEN 'pronet' ELSE 'micro' END, 'person', "provider_account_id", "handle", "handle",
  row_number() OVER (PARTITION BY "user_id", "provider" ORDER BY "updated_at" DESC) = 1, "provider", "provider_account_id"
FROM "auth_accounts" WHERE "provider" IN ('linkedin', 'twitter');
