-- Geographic pages that stop at the page. A radius or box search newest first (or oldest
-- first) used to gather every match from the GiST index and sort them all: 23,561 rows
-- for 2 km around Akwa at 1,000,000 listings. Each listing's searchable point now also
-- falls in a grid cell of 0.02° × 0.02° (about 2.2 × 2.2 km in Cameroon), and a B-tree
-- on (cell, status, listed_at, id) holds each cell's listings of one status in date order,
-- their point included: a search reads, in each cell its area touches, the newest
-- entries until it has a page of matches, then merges the cells' pages
-- (server/api/listings/geo-page.ts). Rows located by their city alone have no point, no cell.
-- The cell number: the cell's row (floor(lat / 0.02)) × 20,000 + its column (floor(lng / 0.02)),
-- unique as a column is within -9,000..9,000. The search computes its cells with the same
-- formula (GEO_CELL_DEG there).
CREATE FUNCTION listing_cell(lat double precision, lng double precision) RETURNS integer
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN (floor(lat / 0.02::float8)::integer * 20000) + floor(lng / 0.02::float8)::integer;

CREATE INDEX listings_geo_cell_idx ON listings (listing_cell(geo_lat, geo_lng), status, listed_at, id) INCLUDE (geo_lat, geo_lng);
CREATE INDEX listings_geo_cell_idx ON sample.listings (listing_cell(geo_lat, geo_lng), status, listed_at, id) INCLUDE (geo_lat, geo_lng);
