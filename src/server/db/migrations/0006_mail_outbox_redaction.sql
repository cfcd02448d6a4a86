ALTER TABLE "mail_outbox" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
-- Mail already sent or given up no longer needs its bodies and headers, which carry reset and unsubscribe links.
UPDATE "mail_outbox" SET "text_body" = '', "html_body" = NULL, "headers" = '{}'::jsonb WHERE "sent_at" IS NOT NULL OR "failed_at" IS NOT NULL;--> statement-breakpoint
-- A reset mail still waiting carries a link that works for one hour after it was queued.
UPDATE "mail_outbox" SET "expires_at" = "created_at" + interval '1 hour' WHERE "sent_at" IS NULL AND "failed_at" IS NULL AND "subject" = 'Reset your Mango Shop password';
