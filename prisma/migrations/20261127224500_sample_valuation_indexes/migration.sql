-- The valuation comparables' indexes (20261125100100_valuation_comparables_order) were
-- made on the live listings only: a test key's valuations read the sample the same way.
-- test/api/test-keys.test.ts now holds every index of a dataset table equal in both schemas.
CREATE INDEX IF NOT EXISTS "listings_valuation_quarter_idx" ON sample."listings"("city_key", "neighborhood_key", "purpose", "type", "listed_at" DESC, "id");
CREATE INDEX IF NOT EXISTS "listings_valuation_city_idx" ON sample."listings"("city_key", "purpose", "type", "listed_at" DESC, "id");
