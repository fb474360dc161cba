-- The fixed public sample that test keys (mboa_test_...) read: the same tables as the live
-- data, in a schema of their own, so the very same SQL serves both (the server reads the
-- sample through connections whose search_path starts with `sample`). Filled, and kept at
-- its fixed content, by the deploy step (npm run db:migrate) and by demo mode; never
-- written by imports. Prisma's schema covers `public` only: these tables are not in it.
CREATE SCHEMA IF NOT EXISTS sample;

CREATE TABLE sample.listings (LIKE public.listings INCLUDING ALL);
CREATE TABLE sample.price_history (LIKE public.price_history INCLUDING ALL);
CREATE TABLE sample.market_stats (LIKE public.market_stats INCLUDING ALL);
CREATE TABLE sample.market_trends (LIKE public.market_trends INCLUDING ALL);
CREATE TABLE sample.places (LIKE public.places INCLUDING ALL);

-- Which fixed content the tables hold (a new version of the sample reloads them).
CREATE TABLE sample.version (version integer NOT NULL, loaded_at timestamptz NOT NULL DEFAULT now());
