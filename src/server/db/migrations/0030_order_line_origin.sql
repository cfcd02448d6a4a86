ALTER TABLE "order_lines" ADD COLUMN "origin_label" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "treatment_label" text;