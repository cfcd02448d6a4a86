CREATE TABLE "claim_line_batches" (
	"claim_line_id" integer NOT NULL,
	"batch_id" integer NOT NULL,
	"boxes" integer NOT NULL,
	CONSTRAINT "claim_line_batches_claim_line_id_batch_id_pk" PRIMARY KEY("claim_line_id","batch_id"),
	CONSTRAINT "claim_line_batches_boxes" CHECK ("claim_line_batches"."boxes" > 0)
);
--> statement-breakpoint
ALTER TABLE "claim_line_batches" ADD CONSTRAINT "claim_line_batches_claim_line_id_claim_lines_id_fk" FOREIGN KEY ("claim_line_id") REFERENCES "public"."claim_lines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_line_batches" ADD CONSTRAINT "claim_line_batches_batch_id_stock_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."stock_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claim_line_batches_batch_idx" ON "claim_line_batches" USING btree ("batch_id");--> statement-breakpoint
-- Claims made since batches were recorded get their batches as a new claim does: each order line's
-- claimed boxes, claims in the order they were made, fill its packed batches in batch order, never
-- more than the line had from one. Lines packed before batches were recorded have none.
WITH "packed" AS (
	SELECT "order_line_id", "batch_id",
		sum("boxes") OVER (PARTITION BY "order_line_id" ORDER BY "batch_id") - "boxes" AS "first_box",
		sum("boxes") OVER (PARTITION BY "order_line_id" ORDER BY "batch_id") AS "end_box"
	FROM "order_line_batches"
), "claimed" AS (
	SELECT "id", "order_line_id",
		sum("quantity") OVER (PARTITION BY "order_line_id" ORDER BY "id") - "quantity" AS "first_box",
		sum("quantity") OVER (PARTITION BY "order_line_id" ORDER BY "id") AS "end_box"
	FROM "claim_lines"
)
INSERT INTO "claim_line_batches" ("claim_line_id", "batch_id", "boxes")
SELECT c."id", p."batch_id", least(c."end_box", p."end_box") - greatest(c."first_box", p."first_box")
FROM "claimed" c JOIN "packed" p ON p."order_line_id" = c."order_line_id"
WHERE least(c."end_box", p."end_box") > greatest(c."first_box", p."first_box");
