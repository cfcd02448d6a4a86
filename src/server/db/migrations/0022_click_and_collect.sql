CREATE TABLE "pickup_days" (
	"date" date PRIMARY KEY NOT NULL,
	"booked_orders" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "pickup_days_booked_non_negative" CHECK ("pickup_days"."booked_orders" >= 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fulfilment" text DEFAULT 'delivery' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "pickup_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "pickup_address" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "pickup_hours" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "pickup_booked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_pickup" CHECK (("orders"."fulfilment" = 'pickup') = ("orders"."pickup_code" is not null and "orders"."pickup_address" is not null and "orders"."pickup_hours" is not null) and ("orders"."fulfilment" = 'delivery' or ("orders"."dispatch_date" is null and "orders"."gift_message" is null)));