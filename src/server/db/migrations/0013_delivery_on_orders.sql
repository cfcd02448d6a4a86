ALTER TABLE "orders" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_date" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "dispatch_date" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivery_boxes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "rural" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "rural_surcharge_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_dispatch_date_idx" ON "orders" USING btree ("dispatch_date");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_rural_surcharge" CHECK ("orders"."rural_surcharge_cents" between 0 and "orders"."shipping_cents");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_boxes" CHECK ("orders"."delivery_boxes" >= 0 and ("orders"."delivery_boxes" = 0 or "orders"."dispatch_date" is not null));