CREATE TABLE "review_mail_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_photos" (
	"review_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"declined_reason" text,
	"decided_at" timestamp with time zone,
	"decided_by" integer,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_photos_review_id_position_pk" PRIMARY KEY("review_id","position"),
	CONSTRAINT "review_photos_position" CHECK ("review_photos"."position" between 1 and 3),
	CONSTRAINT "review_photos_declined" CHECK (("review_photos"."status" = 'declined') = ("review_photos"."declined_reason" is not null) and ("review_photos"."status" = 'pending') = ("review_photos"."decided_at" is null))
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reviews_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"order_id" integer,
	"rating" smallint NOT NULL,
	"title" text,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	"hidden_reason" text,
	"hidden_at" timestamp with time zone,
	"hidden_by" integer,
	"reply_body" text,
	"replied_at" timestamp with time zone,
	"replied_by" integer,
	CONSTRAINT "reviews_rating" CHECK ("reviews"."rating" between 1 and 5),
	CONSTRAINT "reviews_text" CHECK (char_length("reviews"."body") between 1 and 2000 and ("reviews"."title" is null or char_length("reviews"."title") between 1 and 100)),
	CONSTRAINT "reviews_hidden" CHECK (("reviews"."hidden_reason" is null) = ("reviews"."hidden_at" is null)),
	CONSTRAINT "reviews_reply" CHECK (("reviews"."reply_body" is null) = ("reviews"."replied_at" is null) and ("reviews"."reply_body" is null or char_length("reviews"."reply_body") between 1 and 1000))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "review_mail_off_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "review_mail_from" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "review_mail_done_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "review_mail_links" ADD CONSTRAINT "review_mail_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_photos" ADD CONSTRAINT "review_photos_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_photos" ADD CONSTRAINT "review_photos_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_hidden_by_users_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_replied_by_users_id_fk" FOREIGN KEY ("replied_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_mail_links_user_idx" ON "review_mail_links" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "review_photos_pending_idx" ON "review_photos" USING btree ("review_id") WHERE "review_photos"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_product_user_key" ON "reviews" USING btree ("product_id","user_id");--> statement-breakpoint
CREATE INDEX "reviews_product_published_idx" ON "reviews" USING btree ("product_id","created_at") WHERE "reviews"."hidden_reason" is null;--> statement-breakpoint
CREATE INDEX "reviews_created_idx" ON "reviews" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "orders_review_mail_idx" ON "orders" USING btree ("review_mail_from") WHERE "orders"."review_mail_from" is not null and "orders"."review_mail_done_at" is null;