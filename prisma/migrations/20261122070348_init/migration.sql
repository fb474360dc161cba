-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Plan" AS ENUM ('starter', 'pro', 'enterprise');

-- CreateEnum
CREATE TYPE "AccountStatus" AS ENUM ('active', 'suspended');

-- CreateEnum
CREATE TYPE "PropertyType" AS ENUM ('villa', 'house', 'apartment', 'studio', 'duplex', 'room', 'land', 'office', 'shop', 'warehouse');

-- CreateEnum
CREATE TYPE "Purpose" AS ENUM ('sale', 'rent', 'furnished_rent');

-- CreateEnum
CREATE TYPE "ListingStatus" AS ENUM ('active', 'withdrawn', 'sold', 'rented');

-- CreateTable
CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "company_name" TEXT,
    "plan" "Plan" NOT NULL,
    "status" "AccountStatus" NOT NULL DEFAULT 'active',
    "monthly_quota_override" INTEGER,
    "rate_limit_override" INTEGER,
    "password_hash" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plan_changes" (
    "id" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "plan" "Plan" NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plan_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_sessions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "csrf_token" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dashboard_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monthly_usage" (
    "account_id" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "monthly_usage_pkey" PRIMARY KEY ("account_id","month")
);

-- CreateTable
CREATE TABLE "daily_usage" (
    "account_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "endpoint" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "calls" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "daily_usage_pkey" PRIMARY KEY ("account_id","day","endpoint","api_key_id")
);

-- CreateTable
CREATE TABLE "listings" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "price" BIGINT NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'XAF',
    "city" TEXT NOT NULL,
    "city_key" TEXT NOT NULL,
    "neighborhood" TEXT NOT NULL,
    "neighborhood_key" TEXT NOT NULL,
    "surface" DOUBLE PRECISION NOT NULL,
    "bedrooms" INTEGER NOT NULL,
    "bathrooms" INTEGER NOT NULL,
    "type" "PropertyType" NOT NULL,
    "purpose" "Purpose" NOT NULL,
    "price_per_m2" INTEGER,
    "status" "ListingStatus" NOT NULL DEFAULT 'active',
    "listed_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "removed_at" TIMESTAMPTZ(3),
    "contact_name" TEXT,
    "contact_phone" TEXT,
    "contact_email" TEXT,
    "street_address" TEXT,
    "source" TEXT NOT NULL,
    "source_ref" TEXT NOT NULL,

    CONSTRAINT "listings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "price_history" (
    "id" BIGSERIAL NOT NULL,
    "listing_id" TEXT NOT NULL,
    "price" BIGINT NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "price_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "market_stats" (
    "id" SERIAL NOT NULL,
    "city" TEXT NOT NULL,
    "city_key" TEXT NOT NULL,
    "purpose" "Purpose",
    "type" "PropertyType",
    "volume" INTEGER NOT NULL,
    "avg_price" BIGINT NOT NULL,
    "min_price" BIGINT NOT NULL,
    "max_price" BIGINT NOT NULL,
    "median_price" BIGINT NOT NULL,
    "avg_price_per_m2" INTEGER,
    "as_of" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "market_stats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "market_trends" (
    "id" SERIAL NOT NULL,
    "city" TEXT NOT NULL,
    "city_key" TEXT NOT NULL,
    "neighborhood" TEXT NOT NULL,
    "neighborhood_key" TEXT NOT NULL,
    "type" "PropertyType" NOT NULL,
    "purpose" "Purpose" NOT NULL,
    "new_listings" INTEGER NOT NULL,
    "previous_new_listings" INTEGER NOT NULL,
    "avg_price" BIGINT,
    "median_price" BIGINT,
    "avg_price_per_m2" INTEGER,
    "previous_avg_price" BIGINT,
    "avg_price_change_pct" DOUBLE PRECISION,
    "new_listings_change_pct" DOUBLE PRECISION,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "period_end" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "market_trends_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "accounts_email_key" ON "accounts"("email");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_account_id_idx" ON "api_keys"("account_id");

-- CreateIndex
CREATE INDEX "plan_changes_account_id_changed_at_idx" ON "plan_changes"("account_id", "changed_at");

-- CreateIndex
CREATE INDEX "dashboard_sessions_account_id_idx" ON "dashboard_sessions"("account_id");

-- CreateIndex
CREATE INDEX "listings_status_listed_at_id_idx" ON "listings"("status", "listed_at", "id");

-- CreateIndex
CREATE INDEX "listings_status_price_id_idx" ON "listings"("status", "price", "id");

-- CreateIndex
CREATE INDEX "listings_updated_at_id_idx" ON "listings"("updated_at", "id");

-- CreateIndex
CREATE INDEX "listings_city_key_status_listed_at_id_idx" ON "listings"("city_key", "status", "listed_at", "id");

-- CreateIndex
CREATE INDEX "listings_city_key_status_price_id_idx" ON "listings"("city_key", "status", "price", "id");

-- CreateIndex
CREATE INDEX "listings_city_key_neighborhood_key_status_listed_at_id_idx" ON "listings"("city_key", "neighborhood_key", "status", "listed_at", "id");

-- CreateIndex
CREATE INDEX "listings_status_purpose_type_listed_at_id_idx" ON "listings"("status", "purpose", "type", "listed_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "listings_source_source_ref_key" ON "listings"("source", "source_ref");

-- CreateIndex
CREATE INDEX "price_history_listing_id_changed_at_idx" ON "price_history"("listing_id", "changed_at");

-- CreateIndex
CREATE INDEX "market_stats_city_key_purpose_type_idx" ON "market_stats"("city_key", "purpose", "type");

-- CreateIndex
CREATE INDEX "market_trends_city_key_neighborhood_key_type_purpose_idx" ON "market_trends"("city_key", "neighborhood_key", "type", "purpose");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "dashboard_sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monthly_usage" ADD CONSTRAINT "monthly_usage_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "daily_usage" ADD CONSTRAINT "daily_usage_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "price_history" ADD CONSTRAINT "price_history_listing_id_fkey" FOREIGN KEY ("listing_id") REFERENCES "listings"("id") ON DELETE CASCADE ON UPDATE CASCADE;
