CREATE TABLE "subscription_deliveries" (
	"subscription_id" integer NOT NULL,
	"delivery_date" date NOT NULL,
	"state" text,
	"product_id" integer,
	"quantity" smallint,
	"order_id" integer,
	"note" text,
	"charged_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_deliveries_subscription_id_delivery_date_pk" PRIMARY KEY("subscription_id","delivery_date"),
	CONSTRAINT "subscription_deliveries_ordered" CHECK (("subscription_deliveries"."state" = 'ordered') = ("subscription_deliveries"."order_id" is not null)),
	CONSTRAINT "subscription_deliveries_quantity" CHECK ("subscription_deliveries"."quantity" is null or "subscription_deliveries"."quantity" between 1 and 10)
);
--> statement-breakpoint
CREATE TABLE "subscription_mail_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"delivery_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_stop" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"stopped_at" timestamp with time zone,
	"actor_user_id" integer,
	CONSTRAINT "subscription_stop_one_row" CHECK ("subscription_stop"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscriptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"quantity" smallint NOT NULL,
	"every" text NOT NULL,
	"first_delivery_date" date NOT NULL,
	"payment_method" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"paused_until" date,
	"boxes_from" date,
	"ship_name" text NOT NULL,
	"ship_phone" text NOT NULL,
	"ship_street" text NOT NULL,
	"ship_suburb" text DEFAULT '' NOT NULL,
	"ship_city" text NOT NULL,
	"ship_postcode" text NOT NULL,
	"ship_region" text NOT NULL,
	"delivery_instructions" text DEFAULT '' NOT NULL,
	"rural" boolean DEFAULT false NOT NULL,
	"stripe_customer_id" text,
	"stripe_payment_method_id" text,
	"card_setup_session_id" text,
	"told_unit_price_cents" integer NOT NULL,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_quantity_range" CHECK ("subscriptions"."quantity" between 1 and 10),
	CONSTRAINT "subscriptions_cancelled" CHECK (("subscriptions"."status" = 'cancelled') = ("subscriptions"."cancelled_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "subscribable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "subscriber_discount_percent" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "season_ends_on" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "stripe_payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "subscription_deliveries" ADD CONSTRAINT "subscription_deliveries_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_deliveries" ADD CONSTRAINT "subscription_deliveries_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_deliveries" ADD CONSTRAINT "subscription_deliveries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_mail_links" ADD CONSTRAINT "subscription_mail_links_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_stop" ADD CONSTRAINT "subscription_stop_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscription_deliveries_date_idx" ON "subscription_deliveries" USING btree ("delivery_date");--> statement-breakpoint
CREATE INDEX "subscription_mail_links_subscription_idx" ON "subscription_mail_links" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "subscriptions_user_idx" ON "subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "subscriptions_status_idx" ON "subscriptions" USING btree ("status");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_subscriber_discount_range" CHECK ("products"."subscriber_discount_percent" between 0 and 50);