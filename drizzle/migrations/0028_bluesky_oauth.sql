CREATE TABLE "network_sign_ins" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"network" text NOT NULL,
	"data" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_accounts" ADD COLUMN "dpop" jsonb;--> statement-breakpoint
ALTER TABLE "network_sign_ins" ADD CONSTRAINT "network_sign_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "network_sign_ins_expires_idx" ON "network_sign_ins" USING btree ("expires_at");