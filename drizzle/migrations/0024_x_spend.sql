CREATE TABLE "x_spend" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"draft_type" text,
	"draft_id" uuid,
	"micros" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "publishing_accounts" ADD COLUMN "monthly_cap_micros" integer;--> statement-breakpoint
ALTER TABLE "x_spend" ADD CONSTRAINT "x_spend_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "x_spend" ADD CONSTRAINT "x_spend_account_id_publishing_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."publishing_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "x_spend_account_idx" ON "x_spend" USING btree ("account_id","at");