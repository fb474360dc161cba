-- CreateTable
CREATE TABLE "monthly_failures" (
    "account_id" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "failed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "monthly_failures_pkey" PRIMARY KEY ("account_id","month")
);

-- AddForeignKey
ALTER TABLE "monthly_failures" ADD CONSTRAINT "monthly_failures_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
