-- Real Cameroonian feeds often give no surface, bedrooms or bathrooms: the columns take
-- null (market figures use the rows that have what each figure needs). Nothing stored
-- changes. The fixed public sample has the same tables.
ALTER TABLE "listings" ALTER COLUMN "surface" DROP NOT NULL,
  ALTER COLUMN "bedrooms" DROP NOT NULL,
  ALTER COLUMN "bathrooms" DROP NOT NULL;

ALTER TABLE sample.listings ALTER COLUMN surface DROP NOT NULL,
  ALTER COLUMN bedrooms DROP NOT NULL,
  ALTER COLUMN bathrooms DROP NOT NULL;
