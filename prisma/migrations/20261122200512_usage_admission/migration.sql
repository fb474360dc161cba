-- CreateTable
CREATE TABLE "quota_holds" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "quota_holds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_windows" (
    "account_id" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "calls" INTEGER NOT NULL,

    CONSTRAINT "rate_windows_pkey" PRIMARY KEY ("account_id","window_start")
);

-- CreateTable
CREATE TABLE "usage_flushes" (
    "id" TEXT NOT NULL,
    "calls" INTEGER NOT NULL,
    "flushed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_flushes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "quota_holds_account_id_month_idx" ON "quota_holds"("account_id", "month");

-- CreateIndex
CREATE INDEX "usage_flushes_flushed_at_idx" ON "usage_flushes"("flushed_at");

-- Admission of one call in PostgreSQL mode (no Redis, or Redis lost), in one round trip:
-- the per-minute window, then the quota. A counted call takes a hold (a slot of the quota)
-- unless used + held slots reach the quota; when only held slots stand in the way it is
-- told to wait (status 3) rather than refused, since those calls may yet fail and free
-- their slot. Status: 0 admitted, 1 over the rate, 2 quota used up, 3 wait.
-- The monthly row is locked before the holds are read, so concurrent admissions of one
-- account queue on it and never both take the last slot.
CREATE FUNCTION mboa_admit(
  p_account text, p_month date, p_quota integer, p_counted boolean, p_hold text,
  p_now timestamptz, p_hold_ttl interval, p_rate integer, p_window timestamptz)
RETURNS TABLE (status integer, rate_calls integer, used integer, pending integer)
LANGUAGE plpgsql AS $$
DECLARE
  r integer := 0;
  u integer;
  n integer := 0;
BEGIN
  IF p_rate IS NOT NULL THEN
    INSERT INTO rate_windows AS w (account_id, window_start, calls) VALUES (p_account, p_window, 1)
    ON CONFLICT (account_id, window_start) DO UPDATE SET calls = w.calls + 1
    RETURNING w.calls INTO r;
    IF r > p_rate THEN
      RETURN QUERY SELECT 1, r, NULL::integer, 0;
      RETURN;
    END IF;
  END IF;
  IF NOT p_counted OR p_quota IS NULL THEN
    SELECT m.used INTO u FROM monthly_usage m WHERE m.account_id = p_account AND m.month = p_month;
    IF p_quota IS NOT NULL THEN
      SELECT count(*) INTO n FROM quota_holds h WHERE h.account_id = p_account AND h.month = p_month AND h.expires_at > p_now;
    END IF;
    RETURN QUERY SELECT 0, r, coalesce(u, 0), n;
    RETURN;
  END IF;
  INSERT INTO monthly_usage (account_id, month, used) VALUES (p_account, p_month, 0) ON CONFLICT DO NOTHING;
  SELECT m.used INTO u FROM monthly_usage m WHERE m.account_id = p_account AND m.month = p_month FOR UPDATE;
  DELETE FROM quota_holds h WHERE h.account_id = p_account AND h.expires_at <= p_now;
  SELECT count(*) INTO n FROM quota_holds h WHERE h.account_id = p_account AND h.month = p_month;
  IF u + n < p_quota THEN
    INSERT INTO quota_holds (id, account_id, month, expires_at) VALUES (p_hold, p_account, p_month, p_now + p_hold_ttl);
    RETURN QUERY SELECT 0, r, u, n + 1;
    RETURN;
  END IF;
  IF u < p_quota AND p_rate IS NOT NULL THEN
    -- It will wait and ask again: that is one call, not two, for the per-minute limit.
    UPDATE rate_windows w SET calls = w.calls - 1 WHERE w.account_id = p_account AND w.window_start = p_window;
  END IF;
  RETURN QUERY SELECT CASE WHEN u < p_quota THEN 3 ELSE 2 END, r, u, n;
END $$;

-- Counts one answered call: the monthly row first (the lock order of mboa_admit), then the
-- hold it took, if any, and the per-day, per-endpoint, per-key breakdown. Returns the count.
CREATE FUNCTION mboa_commit(
  p_hold text, p_account text, p_month date, p_day date, p_endpoint text, p_key text)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  u integer;
BEGIN
  INSERT INTO monthly_usage AS m (account_id, month, used) VALUES (p_account, p_month, 1)
  ON CONFLICT (account_id, month) DO UPDATE SET used = m.used + 1
  RETURNING m.used INTO u;
  IF p_hold IS NOT NULL THEN
    DELETE FROM quota_holds WHERE id = p_hold;
  END IF;
  INSERT INTO daily_usage AS d (account_id, day, endpoint, api_key_id, calls) VALUES (p_account, p_day, p_endpoint, p_key, 1)
  ON CONFLICT (account_id, day, endpoint, api_key_id) DO UPDATE SET calls = d.calls + 1;
  RETURN u;
END $$;

-- Change feed for the servers' in-process caches (LISTEN): an account's keys, plan, status
-- or limits changed (channel mboa_accounts, payload the account id), or the listings or
-- market tables changed (channel mboa_data). last_used_at alone changes nothing cached.
CREATE FUNCTION mboa_notify_account_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'accounts' THEN
    PERFORM pg_notify('mboa_accounts', coalesce(NEW.id, OLD.id));
  ELSE
    PERFORM pg_notify('mboa_accounts', coalesce(NEW.account_id, OLD.account_id));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER accounts_notify AFTER UPDATE OR DELETE ON accounts
FOR EACH ROW EXECUTE FUNCTION mboa_notify_account_change();

CREATE TRIGGER api_keys_notify AFTER UPDATE ON api_keys
FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
EXECUTE FUNCTION mboa_notify_account_change();

CREATE TRIGGER api_keys_notify_delete AFTER DELETE ON api_keys
FOR EACH ROW EXECUTE FUNCTION mboa_notify_account_change();

CREATE FUNCTION mboa_notify_data_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mboa_data', TG_TABLE_NAME);
  RETURN NULL;
END $$;

CREATE TRIGGER listings_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON listings
FOR EACH STATEMENT EXECUTE FUNCTION mboa_notify_data_change();

CREATE TRIGGER market_stats_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON market_stats
FOR EACH STATEMENT EXECUTE FUNCTION mboa_notify_data_change();

CREATE TRIGGER market_trends_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON market_trends
FOR EACH STATEMENT EXECUTE FUNCTION mboa_notify_data_change();
