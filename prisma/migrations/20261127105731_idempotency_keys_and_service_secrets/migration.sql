-- DropIndex
DROP INDEX "crawl_team_id_idempotency_key_key";

-- AlterTable
ALTER TABLE "crawl" DROP COLUMN "idempotency_key";

-- CreateTable
CREATE TABLE "idempotency_key" (
    "team_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status_code" INTEGER,
    "answer" JSONB,
    "job_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_key_pkey" PRIMARY KEY ("team_id","key")
);

-- CreateTable
CREATE TABLE "service_secret" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "service_secret_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "idempotency_key_created_at_idx" ON "idempotency_key"("created_at");

-- AddForeignKey
ALTER TABLE "idempotency_key" ADD CONSTRAINT "idempotency_key_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

