-- AlterTable
ALTER TABLE "idempotency_key" ADD COLUMN     "claim_id" UUID;

