-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "contract_end" DATE;

-- CreateTable
CREATE TABLE "sales_requests" (
    "id" TEXT NOT NULL,
    "account_id" TEXT,
    "company" TEXT NOT NULL,
    "contact_name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "phone" TEXT,
    "message" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "handled_at" TIMESTAMPTZ(3),

    CONSTRAINT "sales_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sales_requests_created_at_idx" ON "sales_requests"("created_at");

-- AddForeignKey
ALTER TABLE "sales_requests" ADD CONSTRAINT "sales_requests_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
