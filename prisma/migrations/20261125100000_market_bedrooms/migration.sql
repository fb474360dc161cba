-- Market statistics and trends by number of bedrooms (GET /market/stats and /market/trends,
-- `bedrooms` and `group_by=bedrooms`): each precomputed row is also per bedroom count (0 to
-- 5, 5 meaning 5 or more) or, with bedrooms null, for every count together, listings
-- without a count included (the rows as they were). Listings without a count are in no
-- bedrooms row. The bedrooms rows appear at the next market refresh (after a data load,
-- and every MARKET_REFRESH_MINUTES); the sample's, when the deploy step reloads it.

-- DropIndex
DROP INDEX "market_stats_city_key_neighborhood_key_purpose_type_idx";

-- DropIndex
DROP INDEX "market_trends_city_key_neighborhood_key_type_purpose_idx";

-- AlterTable
ALTER TABLE "market_stats" ADD COLUMN     "bedrooms" INTEGER;

-- AlterTable
ALTER TABLE "market_trends" ADD COLUMN     "bedrooms" INTEGER;

-- CreateIndex
CREATE INDEX "market_stats_city_key_neighborhood_key_purpose_type_bedroom_idx" ON "market_stats"("city_key", "neighborhood_key", "purpose", "type", "bedrooms");

-- CreateIndex
CREATE INDEX "market_trends_city_key_neighborhood_key_type_purpose_bedroo_idx" ON "market_trends"("city_key", "neighborhood_key", "type", "purpose", "bedrooms");

-- The fixed sample's copies of both tables, the same way.
DROP INDEX sample."market_stats_city_key_neighborhood_key_purpose_type_idx";
DROP INDEX sample."market_trends_city_key_neighborhood_key_type_purpose_idx";
ALTER TABLE sample.market_stats ADD COLUMN "bedrooms" INTEGER;
ALTER TABLE sample.market_trends ADD COLUMN "bedrooms" INTEGER;
CREATE INDEX "market_stats_city_key_neighborhood_key_purpose_type_bedroom_idx"
  ON sample.market_stats ("city_key", "neighborhood_key", "purpose", "type", "bedrooms");
CREATE INDEX "market_trends_city_key_neighborhood_key_type_purpose_bedroo_idx"
  ON sample.market_trends ("city_key", "neighborhood_key", "type", "purpose", "bedrooms");
