-- CreateTable
CREATE TABLE "signup_decoy_keys" (
    "hash" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "plan" "Plan" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signup_decoy_keys_pkey" PRIMARY KEY ("hash")
);
