-- Which app added a webhook endpoint (null: the owner in Settings, and every endpoint added
-- before this), so that disconnecting the app pauses what it added.
ALTER TABLE "webhook_endpoints" ADD COLUMN "app_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_app_id_connected_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."connected_apps"("id") ON DELETE set null ON UPDATE no action;