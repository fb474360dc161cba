-- What a Cameroonian advert says beyond price and size: whether a place is furnished, a
-- rent's months of advance and of deposit, and a plot's or house's land title (titre
-- foncier). All optional (null: the advert did not say). A furnished_rent row is furnished;
-- a sale whose advert says nothing of its title is `unknown`; rent terms belong to rents.
-- The fixed public sample has the same tables.

-- CreateEnum
CREATE TYPE "LandTitle" AS ENUM ('titled', 'untitled', 'in_progress', 'unknown');

-- AlterTable
ALTER TABLE "listings" ADD COLUMN     "furnished" BOOLEAN,
ADD COLUMN     "advance_months" INTEGER,
ADD COLUMN     "deposit_months" INTEGER,
ADD COLUMN     "land_title" "LandTitle";

ALTER TABLE "listings" ADD CONSTRAINT "listings_advance_months_check" CHECK ("advance_months" BETWEEN 0 AND 24),
ADD CONSTRAINT "listings_deposit_months_check" CHECK ("deposit_months" BETWEEN 0 AND 12),
ADD CONSTRAINT "listings_rent_terms_check"
  CHECK ("purpose" <> 'sale' OR ("advance_months" IS NULL AND "deposit_months" IS NULL));

UPDATE "listings" SET "furnished" = true WHERE "purpose" = 'furnished_rent';
UPDATE "listings" SET "land_title" = 'unknown' WHERE "purpose" = 'sale';

ALTER TABLE sample.listings ADD COLUMN furnished BOOLEAN,
  ADD COLUMN advance_months INTEGER,
  ADD COLUMN deposit_months INTEGER,
  ADD COLUMN land_title "LandTitle";

ALTER TABLE sample.listings ADD CONSTRAINT listings_advance_months_check CHECK (advance_months BETWEEN 0 AND 24),
  ADD CONSTRAINT listings_deposit_months_check CHECK (deposit_months BETWEEN 0 AND 12),
  ADD CONSTRAINT listings_rent_terms_check CHECK (purpose <> 'sale' OR (advance_months IS NULL AND deposit_months IS NULL));

UPDATE sample.listings SET furnished = true WHERE purpose = 'furnished_rent';
UPDATE sample.listings SET land_title = 'unknown' WHERE purpose = 'sale';
