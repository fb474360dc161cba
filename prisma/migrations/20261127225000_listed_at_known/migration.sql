-- Undated adverts (issue 30): a feed row without `listed_at`, imported without
-- `--listed-at`, is dated from the import that first saw it and marked `listed_at_known =
-- false`. Such a listing counts in the market statistics and valuations, in the monthly
-- history's active listings from the month of that first import (never earlier), but never
-- as a new listing of any month nor in the 30-day trends, and its days on market are left
-- out of the history's median. The API says `listed_at_precision: "unknown"`.
-- Every listing stored so far had a date of its own or was stamped as such: true.

-- AlterTable
ALTER TABLE "listings" ADD COLUMN     "listed_at_known" BOOLEAN NOT NULL DEFAULT true;

ALTER TABLE sample.listings ADD COLUMN listed_at_known BOOLEAN NOT NULL DEFAULT true;
