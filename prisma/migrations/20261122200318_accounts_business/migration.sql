-- CreateEnum
CREATE TYPE "SuspensionReason" AS ENUM ('operator', 'non_payment');

-- CreateEnum
CREATE TYPE "Language" AS ENUM ('fr', 'en');

-- CreateEnum
CREATE TYPE "KeyKind" AS ENUM ('live', 'test');

-- CreateEnum
CREATE TYPE "EmailTokenPurpose" AS ENUM ('verify_email', 'reset_password');

-- CreateEnum
CREATE TYPE "PaymentMethod" AS ENUM ('bank_transfer', 'mobile_money');

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "closed_at" TIMESTAMPTZ(3),
ADD COLUMN     "email_verified_at" TIMESTAMPTZ(3),
ADD COLUMN     "language" "Language" NOT NULL DEFAULT 'fr',
ADD COLUMN     "suspension_reason" "SuspensionReason";

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "kind" "KeyKind" NOT NULL DEFAULT 'live';

-- CreateTable
CREATE TABLE "email_tokens" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "purpose" "EmailTokenPurpose" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "email_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quota_alerts" (
    "account_id" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "level" INTEGER NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "quota_alerts_pkey" PRIMARY KEY ("account_id","month","level")
);

-- CreateTable
CREATE TABLE "invoices" (
    "id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "account_id" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "issued_at" TIMESTAMPTZ(3) NOT NULL,
    "due_on" DATE NOT NULL,
    "customer_name" TEXT NOT NULL,
    "customer_email" TEXT NOT NULL,
    "language" "Language" NOT NULL,
    "subtotal_xaf" INTEGER NOT NULL,
    "vat_rate_basis_points" INTEGER NOT NULL,
    "vat_xaf" INTEGER NOT NULL,
    "total_xaf" INTEGER NOT NULL,
    "paid_at" TIMESTAMPTZ(3),
    "payment_reference" TEXT,
    "payment_method" "PaymentMethod",
    "warned_at" TIMESTAMPTZ(3),

    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_lines" (
    "invoice_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "plan" "Plan" NOT NULL,
    "first_day" DATE NOT NULL,
    "last_day" DATE NOT NULL,
    "days" INTEGER NOT NULL,
    "days_in_month" INTEGER NOT NULL,
    "monthly_price_xaf" INTEGER NOT NULL,
    "amount_xaf" INTEGER NOT NULL,

    CONSTRAINT "invoice_lines_pkey" PRIMARY KEY ("invoice_id","position")
);

-- CreateIndex
CREATE INDEX "email_tokens_account_id_purpose_idx" ON "email_tokens"("account_id", "purpose");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_number_key" ON "invoices"("number");

-- CreateIndex
CREATE INDEX "invoices_paid_at_due_on_idx" ON "invoices"("paid_at", "due_on");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_account_id_month_key" ON "invoices"("account_id", "month");

-- AddForeignKey
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quota_alerts" ADD CONSTRAINT "quota_alerts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Accounts opened before addresses were confirmed keep working: they count as confirmed.
UPDATE "accounts" SET "email_verified_at" = "created_at" WHERE "email_verified_at" IS NULL;

-- Every suspension made so far was an operator's.
UPDATE "accounts" SET "suspension_reason" = 'operator' WHERE "status" = 'suspended';
