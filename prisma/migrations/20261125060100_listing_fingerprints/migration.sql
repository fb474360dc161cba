-- Repeats counted once: each listing carries the MD5 digest of what its advert says (source
-- aside), so that the same advert under a new reference is folded into the one stored (see
-- the README, "Loading listings", and server/ingest/repeats.ts, which computes the very same
-- bytes for every row it imports or seeds). listing_fingerprint() is that digest in SQL: it
-- fills the existing rows here and lets anyone recompute a stored fingerprint.

-- A value's canonical bytes: NULL 0x00; a number 0x01 and its float8 (-0 as 0); a text 0x02,
-- its UTF-8 length and its UTF-8 bytes.
CREATE FUNCTION fingerprint_number(v DOUBLE PRECISION) RETURNS BYTEA
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN v IS NULL THEN '\x00'::bytea ELSE '\x01'::bytea || float8send(v + 0) END;

CREATE FUNCTION fingerprint_text(v TEXT) RETURNS BYTEA
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN v IS NULL THEN '\x00'::bytea
              ELSE '\x02'::bytea || int4send(octet_length(v)) || convert_to(v, 'UTF8') END;

-- The title folded as repeats.ts folds it: ASCII letters in lower case, runs of blanks as one
-- space, trimmed (ASCII only, so that the result does not depend on the database's locale).
CREATE FUNCTION listing_fingerprint(
  city_key TEXT, neighborhood_key TEXT, neighborhood TEXT, raw_neighborhood TEXT, type TEXT, purpose TEXT,
  price DOUBLE PRECISION, surface DOUBLE PRECISION, bedrooms DOUBLE PRECISION, bathrooms DOUBLE PRECISION,
  title TEXT, lat DOUBLE PRECISION, lng DOUBLE PRECISION, contact_phone TEXT
) RETURNS BYTEA
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN decode(md5(
    fingerprint_text(city_key) || fingerprint_text(neighborhood_key) || fingerprint_text(neighborhood)
    || fingerprint_text(raw_neighborhood) || fingerprint_text(type) || fingerprint_text(purpose)
    || fingerprint_number(price) || fingerprint_number(surface) || fingerprint_number(bedrooms)
    || fingerprint_number(bathrooms)
    || fingerprint_text(btrim(regexp_replace(
         translate(title, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'),
         '[ ' || chr(9) || chr(10) || chr(11) || chr(12) || chr(13) || ']+', ' ', 'g'), ' '))
    || fingerprint_number(lat) || fingerprint_number(lng)
    || fingerprint_text(nullif(regexp_replace(contact_phone, '[^0-9]', '', 'g'), ''))
  ), 'hex');

-- AlterTable
ALTER TABLE "listings" ADD COLUMN "fingerprint" BYTEA;

UPDATE listings SET fingerprint = listing_fingerprint(
  city_key, neighborhood_key, neighborhood, raw_neighborhood, type::text, purpose::text, price, surface, bedrooms,
  bathrooms, title, lat, lng, contact_phone);

-- CreateIndex
CREATE INDEX "listings_source_fingerprint_idx" ON "listings"("source", "fingerprint") WHERE (status = 'active');

ALTER TABLE sample.listings ADD COLUMN fingerprint BYTEA;
UPDATE sample.listings SET fingerprint = public.listing_fingerprint(
  city_key, neighborhood_key, neighborhood, raw_neighborhood, type::text, purpose::text, price, surface, bedrooms,
  bathrooms, title, lat, lng, contact_phone);
CREATE INDEX ON sample.listings (source, fingerprint) WHERE (status = 'active');
