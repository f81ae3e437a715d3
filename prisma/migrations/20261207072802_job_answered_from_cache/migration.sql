-- AlterTable
ALTER TABLE "job" ADD COLUMN     "answered_from_cache_at" TIMESTAMPTZ(3);

