-- One word for a neighborhood in the schema, the API's: the gazetteer's tables, their keys,
-- indexes, triggers and functions renamed from "quarter". Data and plans are unchanged.
ALTER TABLE "quarters" RENAME TO "neighborhoods";
ALTER TABLE "neighborhoods" RENAME CONSTRAINT "quarters_pkey" TO "neighborhoods_pkey";
ALTER INDEX "quarters_city_key_key_idx" RENAME TO "neighborhoods_city_key_key_idx";
ALTER INDEX "quarters_city_key_name_idx" RENAME TO "neighborhoods_city_key_name_idx";

ALTER TABLE "quarter_aliases" RENAME TO "neighborhood_aliases";
ALTER TABLE "neighborhood_aliases" RENAME CONSTRAINT "quarter_aliases_pkey" TO "neighborhood_aliases_pkey";

ALTER INDEX "listings_valuation_quarter_idx" RENAME TO "listings_valuation_neighborhood_idx";

-- The functions name the table in their bodies, which a rename does not follow.
CREATE OR REPLACE FUNCTION listing_geo_point() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.lat IS NOT NULL AND NEW.lng IS NOT NULL THEN
    NEW.geo_lat := NEW.lat;
    NEW.geo_lng := NEW.lng;
  ELSE
    SELECT q.lat, q.lng INTO NEW.geo_lat, NEW.geo_lng FROM public.neighborhoods q
      WHERE q.city_key = NEW.city_key AND q.name = NEW.neighborhood;
    IF NOT FOUND THEN
      NEW.geo_lat := NULL;
      NEW.geo_lng := NULL;
    END IF;
  END IF;
  RETURN NEW;
END $$;

ALTER FUNCTION quarters_geo_moved() RENAME TO neighborhoods_geo_moved;
CREATE OR REPLACE FUNCTION neighborhoods_geo_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE public.listings l SET geo_lat = q.lat, geo_lng = q.lng
      FROM (SELECT DISTINCT city_key, name FROM new_rows) c LEFT JOIN public.neighborhoods q ON q.city_key = c.city_key AND q.name = c.name
      WHERE l.city_key = c.city_key AND l.neighborhood = c.name AND (l.lat IS NULL OR l.lng IS NULL)
        AND (l.geo_lat, l.geo_lng) IS DISTINCT FROM (q.lat, q.lng);
    UPDATE sample.listings l SET geo_lat = q.lat, geo_lng = q.lng
      FROM (SELECT DISTINCT city_key, name FROM new_rows) c LEFT JOIN public.neighborhoods q ON q.city_key = c.city_key AND q.name = c.name
      WHERE l.city_key = c.city_key AND l.neighborhood = c.name AND (l.lat IS NULL OR l.lng IS NULL)
        AND (l.geo_lat, l.geo_lng) IS DISTINCT FROM (q.lat, q.lng);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE public.listings l SET geo_lat = q.lat, geo_lng = q.lng
      FROM (SELECT DISTINCT city_key, name FROM old_rows) c LEFT JOIN public.neighborhoods q ON q.city_key = c.city_key AND q.name = c.name
      WHERE l.city_key = c.city_key AND l.neighborhood = c.name AND (l.lat IS NULL OR l.lng IS NULL)
        AND (l.geo_lat, l.geo_lng) IS DISTINCT FROM (q.lat, q.lng);
    UPDATE sample.listings l SET geo_lat = q.lat, geo_lng = q.lng
      FROM (SELECT DISTINCT city_key, name FROM old_rows) c LEFT JOIN public.neighborhoods q ON q.city_key = c.city_key AND q.name = c.name
      WHERE l.city_key = c.city_key AND l.neighborhood = c.name AND (l.lat IS NULL OR l.lng IS NULL)
        AND (l.geo_lat, l.geo_lng) IS DISTINCT FROM (q.lat, q.lng);
  END IF;
  RETURN NULL;
END $$;

ALTER TRIGGER quarters_geo_insert ON "neighborhoods" RENAME TO neighborhoods_geo_insert;
ALTER TRIGGER quarters_geo_update ON "neighborhoods" RENAME TO neighborhoods_geo_update;
ALTER TRIGGER quarters_geo_delete ON "neighborhoods" RENAME TO neighborhoods_geo_delete;
