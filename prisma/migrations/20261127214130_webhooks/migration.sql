-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "dataset" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "saved_searches" TEXT[],
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "disabled_at" TIMESTAMPTZ(3),
    "disabled_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_events" (
    "id" TEXT NOT NULL,
    "sequence" BIGSERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "dataset" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(3),
    "last_status" INTEGER,
    "last_error" TEXT,
    "latency_ms" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "listing_changes" (
    "id" BIGSERIAL NOT NULL,
    "listing_id" TEXT NOT NULL,
    "op" TEXT NOT NULL,
    "previous" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "listing_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_account_id_dataset_idx" ON "webhook_endpoints"("account_id", "dataset");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_id_event_id_key" ON "webhook_deliveries"("endpoint_id", "event_id");

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- What an import or refresh changed, noted as it happens: the producer of webhook events
-- reads these rows (never a rescan of the listings). An update is noted only when a public
-- field changed, with the old row.
CREATE FUNCTION note_listing_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO listing_changes (listing_id, op) VALUES (NEW.id, 'insert');
  ELSIF (OLD.title, OLD.price, OLD.city, OLD.neighborhood, OLD.surface, OLD.bedrooms, OLD.bathrooms, OLD.type, OLD.purpose,
         OLD.price_per_m2, OLD.status, OLD.removed_at, OLD.lat, OLD.lng, OLD.furnished, OLD.advance_months,
         OLD.deposit_months, OLD.land_title)
        IS DISTINCT FROM
        (NEW.title, NEW.price, NEW.city, NEW.neighborhood, NEW.surface, NEW.bedrooms, NEW.bathrooms, NEW.type, NEW.purpose,
         NEW.price_per_m2, NEW.status, NEW.removed_at, NEW.lat, NEW.lng, NEW.furnished, NEW.advance_months,
         NEW.deposit_months, NEW.land_title) THEN
    -- The whole old row: the producer reads its public fields through the API's own row mapping.
    INSERT INTO listing_changes (listing_id, op, previous) VALUES (NEW.id, 'update', to_jsonb(OLD));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER listings_note_change AFTER INSERT OR UPDATE ON public.listings
  FOR EACH ROW EXECUTE FUNCTION note_listing_change();
