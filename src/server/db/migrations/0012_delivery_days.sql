CREATE TABLE "delivery_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"data" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_settings_single_row" CHECK ("delivery_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "dispatch_days" (
	"date" date PRIMARY KEY NOT NULL,
	"booked_boxes" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dispatch_days_booked_non_negative" CHECK ("dispatch_days"."booked_boxes" >= 0)
);
