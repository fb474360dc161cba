-- A valuation reads the 150 most recent adverts of one quarter (or, when the quarter is thin,
-- of the city) of a purpose and type, in the order `listed_at DESC, id`: indexes in that very
-- order let it stop after 150 entries instead of reading and sorting every advert of the cell.
-- DropIndex
DROP INDEX "listings_city_key_neighborhood_key_purpose_type_listed_at_idx";

-- CreateIndex
CREATE INDEX "listings_valuation_quarter_idx" ON "listings"("city_key", "neighborhood_key", "purpose", "type", "listed_at" DESC, "id");

-- CreateIndex
CREATE INDEX "listings_valuation_city_idx" ON "listings"("city_key", "purpose", "type", "listed_at" DESC, "id");
