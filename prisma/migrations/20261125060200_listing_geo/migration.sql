-- Geographic search (`near`, `radius_m`, `bbox`, `sort=distance`). cube and earthdistance
-- exist in PostgreSQL's contrib and in the embedded PGlite alike (PostGIS has no PGlite build).
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS earthdistance;

-- Each listing's searchable point: its own (rounded) point, else its quarter's centroid;
-- null when only its city is known (a distance to a city centroid means nothing).
-- AlterTable
ALTER TABLE "listings" ADD COLUMN     "geo_lat" DOUBLE PRECISION,
ADD COLUMN     "geo_lng" DOUBLE PRECISION;
ALTER TABLE sample.listings ADD COLUMN geo_lat DOUBLE PRECISION, ADD COLUMN geo_lng DOUBLE PRECISION;

-- A point on the earth's surface as earthdistance's `earth` (what ll_to_earth gives), with a
-- body parsed once here (SQL-standard), so the index below builds under any search_path
-- (pg_dump's restore, a maintenance run) where ll_to_earth's text body would not find earth().
CREATE FUNCTION listing_earth(lat double precision, lng double precision) RETURNS earth
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN cube(cube(cube(earth() * cos(radians(lat)) * cos(radians(lng))), earth() * cos(radians(lat)) * sin(radians(lng))),
              earth() * sin(radians(lat)))::earth;

-- The point a listing is searched at, worked out by the database itself on every write that
-- can move it (importer, seed, sample, `admin alias add`), so no writer can forget it.
CREATE FUNCTION listing_geo_point() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.lat IS NOT NULL AND NEW.lng IS NOT NULL THEN
    NEW.geo_lat := NEW.lat;
    NEW.geo_lng := NEW.lng;
  ELSE
    SELECT q.lat, q.lng INTO NEW.geo_lat, NEW.geo_lng FROM public.quarters q
      WHERE q.city_key = NEW.city_key AND q.name = NEW.neighborhood;
    IF NOT FOUND THEN
      NEW.geo_lat := NULL;
      NEW.geo_lng := NULL;
    END IF;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER listings_geo_insert BEFORE INSERT ON listings FOR EACH ROW EXECUTE FUNCTION listing_geo_point();
CREATE TRIGGER listings_geo_update BEFORE UPDATE OF lat, lng, city_key, neighborhood ON listings FOR EACH ROW
  WHEN (NEW.lat IS DISTINCT FROM OLD.lat OR NEW.lng IS DISTINCT FROM OLD.lng
        OR NEW.city_key IS DISTINCT FROM OLD.city_key OR NEW.neighborhood IS DISTINCT FROM OLD.neighborhood)
  EXECUTE FUNCTION listing_geo_point();
CREATE TRIGGER listings_geo_insert BEFORE INSERT ON sample.listings FOR EACH ROW EXECUTE FUNCTION listing_geo_point();
CREATE TRIGGER listings_geo_update BEFORE UPDATE OF lat, lng, city_key, neighborhood ON sample.listings FOR EACH ROW
  WHEN (NEW.lat IS DISTINCT FROM OLD.lat OR NEW.lng IS DISTINCT FROM OLD.lng
        OR NEW.city_key IS DISTINCT FROM OLD.city_key OR NEW.neighborhood IS DISTINCT FROM OLD.neighborhood)
  EXECUTE FUNCTION listing_geo_point();

-- A quarter added, moved, renamed or removed by the gazetteer sync moves the listings placed
-- at its centroid: one statement per sync over the rows it changed (none most of the time).
CREATE FUNCTION quarters_geo_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE public.listings l SET geo_lat = q.lat, geo_lng = q.lng
      FROM (SELECT DISTINCT city_key, name FROM new_rows) c LEFT JOIN public.quarters q ON q.city_key = c.city_key AND q.name = c.name
      WHERE l.city_key = c.city_key AND l.neighborhood = c.name AND (l.lat IS NULL OR l.lng IS NULL)
        AND (l.geo_lat, l.geo_lng) IS DISTINCT FROM (q.lat, q.lng);
    UPDATE sample.listings l SET geo_lat = q.lat, geo_lng = q.lng
      FROM (SELECT DISTINCT city_key, name FROM new_rows) c LEFT JOIN public.quarters q ON q.city_key = c.city_key AND q.name = c.name
      WHERE l.city_key = c.city_key AND l.neighborhood = c.name AND (l.lat IS NULL OR l.lng IS NULL)
        AND (l.geo_lat, l.geo_lng) IS DISTINCT FROM (q.lat, q.lng);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE public.listings l SET geo_lat = q.lat, geo_lng = q.lng
      FROM (SELECT DISTINCT city_key, name FROM old_rows) c LEFT JOIN public.quarters q ON q.city_key = c.city_key AND q.name = c.name
      WHERE l.city_key = c.city_key AND l.neighborhood = c.name AND (l.lat IS NULL OR l.lng IS NULL)
        AND (l.geo_lat, l.geo_lng) IS DISTINCT FROM (q.lat, q.lng);
    UPDATE sample.listings l SET geo_lat = q.lat, geo_lng = q.lng
      FROM (SELECT DISTINCT city_key, name FROM old_rows) c LEFT JOIN public.quarters q ON q.city_key = c.city_key AND q.name = c.name
      WHERE l.city_key = c.city_key AND l.neighborhood = c.name AND (l.lat IS NULL OR l.lng IS NULL)
        AND (l.geo_lat, l.geo_lng) IS DISTINCT FROM (q.lat, q.lng);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER quarters_geo_insert AFTER INSERT ON quarters REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quarters_geo_moved();
CREATE TRIGGER quarters_geo_update AFTER UPDATE ON quarters REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quarters_geo_moved();
CREATE TRIGGER quarters_geo_delete AFTER DELETE ON quarters REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION quarters_geo_moved();

-- Backfill: the rows already there.
UPDATE listings SET geo_lat = lat, geo_lng = lng WHERE lat IS NOT NULL AND lng IS NOT NULL;
UPDATE listings l SET geo_lat = q.lat, geo_lng = q.lng FROM quarters q
  WHERE (l.lat IS NULL OR l.lng IS NULL) AND q.city_key = l.city_key AND q.name = l.neighborhood;
UPDATE sample.listings SET geo_lat = lat, geo_lng = lng WHERE lat IS NOT NULL AND lng IS NOT NULL;
UPDATE sample.listings l SET geo_lat = q.lat, geo_lng = q.lng FROM quarters q
  WHERE (l.lat IS NULL OR l.lng IS NULL) AND q.city_key = l.city_key AND q.name = l.neighborhood;

-- The index of `near` and `bbox`: earth_box(centre, radius) @> listing_earth(geo_lat, geo_lng).
-- Rows located by their city alone have no point and no index entry.
CREATE INDEX listings_geo_idx ON listings USING gist (listing_earth(geo_lat, geo_lng));
CREATE INDEX listings_geo_idx ON sample.listings USING gist (listing_earth(geo_lat, geo_lng));
