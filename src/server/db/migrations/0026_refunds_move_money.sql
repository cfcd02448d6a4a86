ALTER TABLE "refunds" ADD COLUMN "method" text DEFAULT 'transfer' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "state" text DEFAULT 'refunded' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "stripe_refund_id" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payout_account" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "payout_name" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "account_given_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "paid_out_by" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_paid_out_by_users_id_fk" FOREIGN KEY ("paid_out_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_open_idx" ON "refunds" USING btree ("state") WHERE "refunds"."state" <> 'refunded';--> statement-breakpoint
-- Refunds recorded before this change were recorded as given: they count as refunded when they were made.
UPDATE "refunds" SET "refunded_at" = "created_at";
