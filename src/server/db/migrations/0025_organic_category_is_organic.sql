-- The shop's Organic filter reads the organic flag, as the badge does: a product filed under the
-- Organic category is marked organic, so it stays under that filter.
UPDATE "products" SET "is_organic" = true WHERE "category" = 'Organic' AND "is_organic" = false;
