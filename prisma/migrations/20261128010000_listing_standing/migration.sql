-- The standing an advert claims (`high`, `standard`, `basic`), as its feed states it or as
-- the importer reads it from its title and description (server/domain/listing/standing.ts);
-- null when neither says. Listings stored so far get it when their feed is next imported.
-- The fixed public sample has the same table.

-- CreateEnum
CREATE TYPE "Standing" AS ENUM ('high', 'standard', 'basic');

-- AlterTable
ALTER TABLE "listings" ADD COLUMN     "standing" "Standing";

ALTER TABLE sample.listings ADD COLUMN standing "Standing";

-- A listing whose standing changes is updated for webhooks too: the same comparison as
-- before, standing added (public fields only).
CREATE OR REPLACE FUNCTION note_listing_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO listing_changes (listing_id, op) VALUES (NEW.id, 'insert');
  ELSIF (OLD.title, OLD.price, OLD.city, OLD.neighborhood, OLD.surface, OLD.bedrooms, OLD.bathrooms, OLD.type, OLD.purpose,
         OLD.price_per_m2, OLD.status, OLD.removed_at, OLD.lat, OLD.lng, OLD.furnished, OLD.advance_months,
         OLD.deposit_months, OLD.land_title, OLD.standing)
        IS DISTINCT FROM
        (NEW.title, NEW.price, NEW.city, NEW.neighborhood, NEW.surface, NEW.bedrooms, NEW.bathrooms, NEW.type, NEW.purpose,
         NEW.price_per_m2, NEW.status, NEW.removed_at, NEW.lat, NEW.lng, NEW.furnished, NEW.advance_months,
         NEW.deposit_months, NEW.land_title, NEW.standing) THEN
    -- The whole old row: the producer reads its public fields through the API's own row mapping.
    INSERT INTO listing_changes (listing_id, op, previous) VALUES (NEW.id, 'update', to_jsonb(OLD));
  END IF;
  RETURN NULL;
END $$;
