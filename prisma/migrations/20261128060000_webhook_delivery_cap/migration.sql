-- The monthly cap of webhook deliveries per plan (contract/plans.ts), kept exact by one
-- counter row per account and month: the event producer locks it and raises it in the
-- same transaction as the deliveries it queues, so two instances never pass the cap
-- together. Deliveries past the cap are kept with status 'over_cap': never sent, listed in
-- the delivery log, sent on request (resend) once the month has room.
CREATE TABLE "webhook_usage" (
    "account_id" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "deliveries" INTEGER NOT NULL DEFAULT 0,
    "over_cap" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "webhook_usage_pkey" PRIMARY KEY ("account_id","month")
);

ALTER TABLE "webhook_usage" ADD CONSTRAINT "webhook_usage_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- What was queued before: each event counted once per endpoint, test events aside.
INSERT INTO "webhook_usage" ("account_id", "month", "deliveries")
SELECT w."account_id", date_trunc('month', d."created_at" AT TIME ZONE 'UTC')::date, count(*)::int
  FROM "webhook_deliveries" d
  JOIN "webhook_endpoints" w ON w."id" = d."endpoint_id"
  JOIN "webhook_events" e ON e."id" = d."event_id"
 WHERE e."type" <> 'webhook.test'
 GROUP BY 1, 2;
