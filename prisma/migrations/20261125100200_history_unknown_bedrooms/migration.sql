-- Listings without a bedroom count were counted in the top bedrooms bucket (5 or more) of
-- the monthly history. The next market refresh recomputes every stored month, live and
-- sample alike.
INSERT INTO market_history_dirty (dirty_from) VALUES ('2000-01-01T00:00:00Z');
INSERT INTO sample.market_history_dirty (dirty_from) VALUES ('2000-01-01T00:00:00Z');
