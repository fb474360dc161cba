-- A feed may give an advert's own point (WGS84). A listing's public location is that point
-- rounded to about 100 m, else its quarter's centroid, else its city's (see the README).
-- AlterTable
ALTER TABLE "listings" ADD COLUMN     "lat" DOUBLE PRECISION,
ADD COLUMN     "lng" DOUBLE PRECISION;

-- CreateIndex
CREATE INDEX "quarters_city_key_name_idx" ON "quarters"("city_key", "name");

ALTER TABLE sample.listings ADD COLUMN lat DOUBLE PRECISION, ADD COLUMN lng DOUBLE PRECISION;
