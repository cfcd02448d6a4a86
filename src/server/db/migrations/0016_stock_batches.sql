CREATE TABLE "batch_movements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "batch_movements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"batch_id" integer NOT NULL,
	"change" integer NOT NULL,
	"reason" text NOT NULL,
	"order_id" integer,
	"actor_user_id" integer,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "batch_movements_change_non_zero" CHECK ("batch_movements"."change" <> 0)
);
--> statement-breakpoint
CREATE TABLE "order_line_batches" (
	"order_line_id" integer NOT NULL,
	"batch_id" integer NOT NULL,
	"boxes" integer NOT NULL,
	"packed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_line_batches_order_line_id_batch_id_pk" PRIMARY KEY("order_line_id","batch_id"),
	CONSTRAINT "order_line_batches_boxes" CHECK ("order_line_batches"."boxes" > 0)
);
--> statement-breakpoint
CREATE TABLE "stock_batches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stock_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"boxes_received" integer NOT NULL,
	"boxes_left" integer NOT NULL,
	"harvested_on" date,
	"best_before" date,
	"grower" text,
	"shipment_id" integer,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_batches_boxes" CHECK ("stock_batches"."boxes_received" > 0 and "stock_batches"."boxes_left" >= 0),
	CONSTRAINT "stock_batches_dates" CHECK ("stock_batches"."harvested_on" is null or "stock_batches"."best_before" is null or "stock_batches"."harvested_on" <= "stock_batches"."best_before")
);
--> statement-breakpoint
ALTER TABLE "batch_movements" ADD CONSTRAINT "batch_movements_batch_id_stock_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."stock_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_movements" ADD CONSTRAINT "batch_movements_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_movements" ADD CONSTRAINT "batch_movements_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_line_batches" ADD CONSTRAINT "order_line_batches_order_line_id_order_lines_id_fk" FOREIGN KEY ("order_line_id") REFERENCES "public"."order_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_line_batches" ADD CONSTRAINT "order_line_batches_batch_id_stock_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."stock_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_batches" ADD CONSTRAINT "stock_batches_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_batches" ADD CONSTRAINT "stock_batches_shipment_id_shipments_id_fk" FOREIGN KEY ("shipment_id") REFERENCES "public"."shipments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batch_movements_batch_idx" ON "batch_movements" USING btree ("batch_id","created_at");--> statement-breakpoint
CREATE INDEX "order_line_batches_batch_idx" ON "order_line_batches" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "stock_batches_product_idx" ON "stock_batches" USING btree ("product_id","best_before");--> statement-breakpoint
-- Boxes already in the cool room become one batch per product with its dates unknown: the stock,
-- plus the boxes of orders placed but not packed yet (in-stock lines, and pre-order lines served
-- from a shipment), which are still on the shelf.
INSERT INTO "stock_batches" ("product_id", "boxes_received", "boxes_left", "note")
SELECT p."id", p."stock" + coalesce(held."boxes", 0), p."stock" + coalesce(held."boxes", 0), 'In the cool room before batches were recorded'
FROM "products" p
LEFT JOIN (
	SELECT l."product_id", sum(l."quantity")::int AS "boxes"
	FROM "order_lines" l JOIN "orders" o ON o."id" = l."order_id"
	WHERE o."status" IN ('pending_payment', 'paid') AND (NOT l."is_pre_order" OR l."allocated_at" IS NOT NULL)
	GROUP BY l."product_id"
) held ON held."product_id" = p."id"
WHERE p."stock" + coalesce(held."boxes", 0) > 0;--> statement-breakpoint
INSERT INTO "batch_movements" ("batch_id", "change", "reason", "note")
SELECT "id", "boxes_left", 'opening', 'In the cool room before batches were recorded' FROM "stock_batches";
