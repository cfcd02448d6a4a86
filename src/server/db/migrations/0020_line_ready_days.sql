ALTER TABLE "order_lines" ADD COLUMN "ready_from" date;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "ready_until" date;