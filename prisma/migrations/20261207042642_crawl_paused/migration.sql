-- AlterTable
ALTER TABLE "crawl" ADD COLUMN     "paused_at" TIMESTAMPTZ(3),
ADD COLUMN     "paused_by" TEXT;

