-- Monthly market history (GET /market/history): one row per (city, quarter or the whole
-- city, purpose, type or every type, bedrooms or every count, month) that had listings,
-- computed by server/ingest/market-history.ts from listings and price_history. Figures
-- resting on fewer listings than the contract's HISTORY_MIN_SAMPLE are stored as null.
CREATE TABLE "market_history" (
    "id" BIGSERIAL NOT NULL,
    "city" TEXT NOT NULL,
    "city_key" TEXT NOT NULL,
    "neighborhood" TEXT,
    "neighborhood_key" TEXT,
    "purpose" "Purpose" NOT NULL,
    "type" "PropertyType",
    "bedrooms" INTEGER,
    "month" DATE NOT NULL,
    "active_listings" INTEGER NOT NULL,
    "new_listings" INTEGER NOT NULL,
    "sold" INTEGER NOT NULL,
    "rented" INTEGER NOT NULL,
    "withdrawn" INTEGER NOT NULL,
    "p25_price" BIGINT,
    "median_price" BIGINT,
    "p75_price" BIGINT,
    "price_per_m2_sample_size" INTEGER NOT NULL,
    "median_price_per_m2" INTEGER,
    "median_days_on_market" INTEGER,

    CONSTRAINT "market_history_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "market_history_city_key_neighborhood_key_purpose_type_bedro_idx"
  ON "market_history"("city_key", "neighborhood_key", "purpose", "type", "bedrooms", "month");
CREATE INDEX "market_history_month_idx" ON "market_history"("month");

-- The earliest instant each write to listings or price_history may have changed a month's
-- figures from: the next refresh recomputes the months from there on, and deletes the rows
-- it has read. Written by the statement-level triggers below, whatever the writer (import,
-- seed, alias move, hand-made SQL).
CREATE TABLE "market_history_dirty" (
    "id" BIGSERIAL NOT NULL,
    "dirty_from" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "market_history_dirty_pkey" PRIMARY KEY ("id")
);

-- A new or deleted listing counts from its listed_at. An updated one counts from its old or
-- new listed_at when anything a figure groups or measures by changed (place, type, purpose,
-- bedrooms, surface, dates); a change of price or status alone counts from the change's time
-- (updated_at) or its removal, whichever is earlier: the price in effect before that comes
-- from price_history.
CREATE FUNCTION mboa_history_dirty_listings() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  t timestamptz;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT min(n.listed_at) INTO t FROM new_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT min(o.listed_at) INTO t FROM old_rows o;
  ELSE
    SELECT min(CASE
             WHEN (o.listed_at, o.city_key, o.neighborhood_key, o.type, o.purpose, o.bedrooms, o.surface)
                  IS DISTINCT FROM (n.listed_at, n.city_key, n.neighborhood_key, n.type, n.purpose, n.bedrooms, n.surface)
               THEN least(o.listed_at, n.listed_at)
             WHEN o.price IS DISTINCT FROM n.price
               THEN CASE WHEN EXISTS (SELECT 1 FROM public.price_history ph WHERE ph.listing_id = n.id)
                         THEN least(n.updated_at, o.removed_at, n.removed_at) ELSE n.listed_at END
             WHEN (o.status, o.removed_at) IS DISTINCT FROM (n.status, n.removed_at)
               THEN least(o.removed_at, n.removed_at, n.updated_at)
           END)
      INTO t
      FROM old_rows o JOIN new_rows n USING (id);
  END IF;
  IF t IS NOT NULL THEN
    INSERT INTO public.market_history_dirty (dirty_from) VALUES (t);
  END IF;
  RETURN NULL;
END $$;

-- A price change counts from its date, except a listing's first price dated from its
-- listed_at: the import writes it when a listing is first repriced, and it restates the price
-- the listing had from the start (a new listing counts from listed_at through its own row).
CREATE FUNCTION mboa_history_dirty_prices() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  t timestamptz;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT min(n.changed_at) INTO t FROM new_rows n
    WHERE NOT EXISTS (SELECT 1 FROM public.listings l WHERE l.id = n.listing_id AND l.listed_at = n.changed_at);
  ELSIF TG_OP = 'DELETE' THEN
    SELECT min(o.changed_at) INTO t FROM old_rows o;
  ELSE
    SELECT min(least(o.changed_at, n.changed_at)) INTO t FROM old_rows o JOIN new_rows n USING (id)
    WHERE (o.listing_id, o.price, o.changed_at) IS DISTINCT FROM (n.listing_id, n.price, n.changed_at);
  END IF;
  IF t IS NOT NULL THEN
    INSERT INTO public.market_history_dirty (dirty_from) VALUES (t);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER listings_history_insert AFTER INSERT ON listings
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mboa_history_dirty_listings();
CREATE TRIGGER listings_history_update AFTER UPDATE ON listings
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mboa_history_dirty_listings();
CREATE TRIGGER listings_history_delete AFTER DELETE ON listings
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mboa_history_dirty_listings();

CREATE TRIGGER price_history_history_insert AFTER INSERT ON price_history
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mboa_history_dirty_prices();
CREATE TRIGGER price_history_history_update AFTER UPDATE ON price_history
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION mboa_history_dirty_prices();
CREATE TRIGGER price_history_history_delete AFTER DELETE ON price_history
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION mboa_history_dirty_prices();

CREATE TRIGGER market_history_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON market_history
FOR EACH STATEMENT EXECUTE FUNCTION mboa_notify_data_change();

-- The fixed sample's own history (its loader fills it with the live data's SQL); its
-- tables carry no triggers: the sample is loaded whole.
CREATE TABLE sample.market_history (LIKE public.market_history INCLUDING ALL);
CREATE TABLE sample.market_history_dirty (LIKE public.market_history_dirty INCLUDING ALL);
