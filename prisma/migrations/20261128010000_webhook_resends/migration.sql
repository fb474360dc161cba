-- A delivery sent again on request (dashboard or API): its retries count from then, not
-- from the event's creation, so resending an old event never gives up at once.
ALTER TABLE "webhook_deliveries" ADD COLUMN "resent_at" TIMESTAMPTZ(3);
