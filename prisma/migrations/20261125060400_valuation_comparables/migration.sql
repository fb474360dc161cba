-- A valuation reads one quarter's adverts of a purpose and type, most recent first.
-- CreateIndex
CREATE INDEX "listings_city_key_neighborhood_key_purpose_type_listed_at_idx" ON "listings"("city_key", "neighborhood_key", "purpose", "type", "listed_at");
