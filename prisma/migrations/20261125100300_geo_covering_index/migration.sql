-- The geographic index covers what a radius or box search of active listings, newest first
-- or nearest first, reads of the candidates (their point, status, date and id): a dense
-- area's thousands of candidates are counted and ordered from the index alone, without
-- visiting the table; only the page's rows are read.
DROP INDEX listings_geo_idx;
CREATE INDEX listings_geo_idx ON listings USING gist (listing_earth(geo_lat, geo_lng)) INCLUDE (geo_lat, geo_lng, status, listed_at, id);
DROP INDEX sample.listings_geo_idx;
CREATE INDEX listings_geo_idx ON sample.listings USING gist (listing_earth(geo_lat, geo_lng)) INCLUDE (geo_lat, geo_lng, status, listed_at, id);
