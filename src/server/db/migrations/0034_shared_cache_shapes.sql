CREATE TABLE "shared_cache_shapes" (
	"tag" text PRIMARY KEY NOT NULL,
	"shape" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
