ALTER TABLE "shipments" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_idempotency_key" ON "shipments" USING btree ("product_id","idempotency_key");