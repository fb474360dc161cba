-- The market tables only hold figures derived from listings. They are emptied here so that
-- the new NOT NULL columns can be added, and the server rebuilds them at start when they
-- are empty (and after every load, and every MARKET_REFRESH_MINUTES).
DELETE FROM "market_stats";
DELETE FROM "market_trends";

-- DropIndex
DROP INDEX "market_stats_city_key_purpose_type_idx";

-- AlterTable
ALTER TABLE "market_stats" ADD COLUMN     "median_price_per_m2" INTEGER,
ADD COLUMN     "neighborhood" TEXT,
ADD COLUMN     "neighborhood_key" TEXT,
ADD COLUMN     "p25_price" BIGINT NOT NULL,
ADD COLUMN     "p25_price_per_m2" INTEGER,
ADD COLUMN     "p75_price" BIGINT NOT NULL,
ADD COLUMN     "p75_price_per_m2" INTEGER,
ADD COLUMN     "price_per_m2_volume" INTEGER NOT NULL;

-- AlterTable
ALTER TABLE "market_trends" ADD COLUMN     "price_per_m2_volume" INTEGER NOT NULL;

-- CreateTable
CREATE TABLE "places" (
    "city_key" TEXT NOT NULL,
    "neighborhood_key" TEXT NOT NULL,
    "city" TEXT NOT NULL,
    "neighborhood" TEXT NOT NULL,
    "listings" INTEGER NOT NULL,

    CONSTRAINT "places_pkey" PRIMARY KEY ("city_key","neighborhood_key")
);

-- CreateIndex
CREATE INDEX "places_neighborhood_key_idx" ON "places"("neighborhood_key");

-- CreateIndex
CREATE INDEX "market_stats_city_key_neighborhood_key_purpose_type_idx" ON "market_stats"("city_key", "neighborhood_key", "purpose", "type");
