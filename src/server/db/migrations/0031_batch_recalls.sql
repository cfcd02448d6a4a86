CREATE TABLE "batch_recall_orders" (
	"recall_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"boxes" integer NOT NULL,
	"action" text NOT NULL,
	"boxes_short" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "batch_recall_orders_recall_id_order_id_pk" PRIMARY KEY("recall_id","order_id"),
	CONSTRAINT "batch_recall_orders_boxes" CHECK ("batch_recall_orders"."boxes" > 0 and "batch_recall_orders"."boxes_short" between 0 and "batch_recall_orders"."boxes")
);
--> statement-breakpoint
CREATE TABLE "batch_recalls" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "batch_recalls_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"batch_id" integer NOT NULL,
	"reason" text NOT NULL,
	"advice" text NOT NULL,
	"boxes_written_off" integer NOT NULL,
	"actor_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by_user_id" integer,
	CONSTRAINT "batch_recalls_boxes" CHECK ("batch_recalls"."boxes_written_off" >= 0)
);
--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "recalled_boxes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "held_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "batch_recall_orders" ADD CONSTRAINT "batch_recall_orders_recall_id_batch_recalls_id_fk" FOREIGN KEY ("recall_id") REFERENCES "public"."batch_recalls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_recall_orders" ADD CONSTRAINT "batch_recall_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_recalls" ADD CONSTRAINT "batch_recalls_batch_id_stock_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."stock_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_recalls" ADD CONSTRAINT "batch_recalls_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_recalls" ADD CONSTRAINT "batch_recalls_closed_by_user_id_users_id_fk" FOREIGN KEY ("closed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batch_recall_orders_order_idx" ON "batch_recall_orders" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "batch_recalls_batch_key" ON "batch_recalls" USING btree ("batch_id");--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_recalled_boxes" CHECK ("order_lines"."recalled_boxes" between 0 and "order_lines"."quantity");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_held" CHECK (("orders"."held_reason" is null) = ("orders"."held_at" is null));