ALTER TABLE "products" ADD COLUMN "origin_country" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "treatment" text;--> statement-breakpoint
ALTER TABLE "stock_batches" ADD COLUMN "origin_country" text;--> statement-breakpoint
ALTER TABLE "stock_batches" ADD COLUMN "treatment" text;