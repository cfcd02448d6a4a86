CREATE TABLE "uploaded_image_variants" (
	"image_name" text NOT NULL,
	"width" integer NOT NULL,
	"format" text NOT NULL,
	"byte_size" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "uploaded_image_variants_image_name_width_format_pk" PRIMARY KEY("image_name","width","format"),
	CONSTRAINT "uploaded_image_variants_format" CHECK ("uploaded_image_variants"."format" in ('avif', 'webp')),
	CONSTRAINT "uploaded_image_variants_byte_size" CHECK ("uploaded_image_variants"."byte_size" = octet_length("uploaded_image_variants"."bytes"))
);
--> statement-breakpoint
ALTER TABLE "uploaded_images" ADD COLUMN "width" integer;--> statement-breakpoint
ALTER TABLE "uploaded_images" ADD COLUMN "height" integer;--> statement-breakpoint
ALTER TABLE "uploaded_images" ADD COLUMN "variant_widths" integer[];--> statement-breakpoint
ALTER TABLE "uploaded_image_variants" ADD CONSTRAINT "uploaded_image_variants_image_name_uploaded_images_name_fk" FOREIGN KEY ("image_name") REFERENCES "public"."uploaded_images"("name") ON DELETE cascade ON UPDATE no action;