-- Stock is the sum of its movements: record what each product held before movements were kept.
INSERT INTO "stock_movements" ("product_id", "change", "reason", "note")
SELECT p."id", p."stock" - COALESCE(m."total", 0), 'opening', 'Stock before movements were recorded'
FROM "products" p
LEFT JOIN (SELECT "product_id", SUM("change") AS "total" FROM "stock_movements" GROUP BY "product_id") m ON m."product_id" = p."id"
WHERE p."stock" - COALESCE(m."total", 0) <> 0;
