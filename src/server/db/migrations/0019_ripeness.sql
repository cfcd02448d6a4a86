CREATE TABLE "ready_mail_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "ready_mail_off_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "ripening_days" smallint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "days_at_best" smallint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ready_mail_on" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ready_mail_done_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ready_mail_links" ADD CONSTRAINT "ready_mail_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ready_mail_links_user_idx" ON "ready_mail_links" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "orders_ready_mail_idx" ON "orders" USING btree ("ready_mail_on") WHERE "orders"."ready_mail_on" is not null and "orders"."ready_mail_done_at" is null;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_ripening" CHECK (("products"."ripening_days" is null) = ("products"."days_at_best" is null) and ("products"."ripening_days" is null or ("products"."ripening_days" between 0 and 60 and "products"."days_at_best" between 1 and 30)));