-- CreateIndex
CREATE INDEX "listings_city_key_purpose_type_status_idx" ON "listings"("city_key", "purpose", "type", "status");
