-- The gazetteer: quarters with their centroids and other names (contract/gazetteer,
-- loaded into `quarters` by `npm run db:migrate`, demo mode and every import, idempotently),
-- operators' aliases, and listings filed under their city alone when their quarter could
-- not be resolved (the feed's name kept aside in the private raw_neighborhood).
-- AlterTable
ALTER TABLE "listings" ADD COLUMN     "raw_neighborhood" TEXT,
ALTER COLUMN "neighborhood" DROP NOT NULL,
ALTER COLUMN "neighborhood_key" DROP NOT NULL;

-- CreateTable
CREATE TABLE "quarters" (
    "city_key" TEXT NOT NULL,
    "folded" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "parent_name" TEXT,
    "lat" DOUBLE PRECISION NOT NULL,
    "lng" DOUBLE PRECISION NOT NULL,
    "precision_m" INTEGER NOT NULL,

    CONSTRAINT "quarters_pkey" PRIMARY KEY ("city_key","folded")
);

-- CreateTable
CREATE TABLE "quarter_aliases" (
    "city_key" TEXT NOT NULL,
    "folded" TEXT NOT NULL,
    "alias" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quarter_aliases_pkey" PRIMARY KEY ("city_key","folded")
);

-- CreateIndex
CREATE INDEX "quarters_city_key_key_idx" ON "quarters"("city_key", "key");

-- The fixed public sample has the same listings table.
ALTER TABLE sample.listings ADD COLUMN raw_neighborhood TEXT,
  ALTER COLUMN neighborhood DROP NOT NULL,
  ALTER COLUMN neighborhood_key DROP NOT NULL;
