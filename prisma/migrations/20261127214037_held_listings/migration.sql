-- Valid feed rows whose price is not plausible (server/ingest/plausibility.ts): held with
-- their reason, never served nor counted, until an operator releases them (admin held release).
-- CreateTable
CREATE TABLE "held_listings" (
    "source" TEXT NOT NULL,
    "source_ref" TEXT NOT NULL,
    "price" BIGINT NOT NULL,
    "reason" TEXT NOT NULL,
    "record" JSONB NOT NULL,
    "held_at" TIMESTAMPTZ(3) NOT NULL,
    "released_at" TIMESTAMPTZ(3),

    CONSTRAINT "held_listings_pkey" PRIMARY KEY ("source","source_ref")
);
