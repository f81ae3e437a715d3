-- AlterTable
ALTER TABLE "crawl" ADD COLUMN     "robots_txt" TEXT,
ADD COLUMN     "warning" TEXT;

-- AlterTable
ALTER TABLE "crawl_page" ADD COLUMN     "purged_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "crawl_robots_blocked" (
    "crawl_id" UUID NOT NULL,
    "url_key" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "crawl_robots_blocked_pkey" PRIMARY KEY ("crawl_id","url_key")
);

-- CreateTable
CREATE TABLE "usage_entry" (
    "id" BIGSERIAL NOT NULL,
    "team_id" UUID NOT NULL,
    "api_key_id" UUID,
    "endpoint" TEXT NOT NULL,
    "job_id" TEXT NOT NULL,
    "item_key" TEXT NOT NULL,
    "credits" INTEGER NOT NULL,
    "tokens" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_entry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "team_slot" (
    "team_id" UUID NOT NULL,
    "slot" INTEGER NOT NULL,
    "holder" TEXT,
    "leased_until" TIMESTAMPTZ(3),

    CONSTRAINT "team_slot_pkey" PRIMARY KEY ("team_id","slot")
);

-- CreateTable
CREATE TABLE "page_cache" (
    "team_id" UUID NOT NULL,
    "cache_key" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "document" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "page_cache_pkey" PRIMARY KEY ("team_id","cache_key")
);

-- CreateIndex
CREATE INDEX "usage_entry_team_id_created_at_idx" ON "usage_entry"("team_id", "created_at");

-- CreateIndex
CREATE INDEX "usage_entry_job_id_idx" ON "usage_entry"("job_id");

-- CreateIndex
CREATE UNIQUE INDEX "usage_entry_endpoint_job_id_item_key_key" ON "usage_entry"("endpoint", "job_id", "item_key");

-- CreateIndex
CREATE INDEX "page_cache_created_at_idx" ON "page_cache"("created_at");

-- AddForeignKey
ALTER TABLE "crawl_robots_blocked" ADD CONSTRAINT "crawl_robots_blocked_crawl_id_fkey" FOREIGN KEY ("crawl_id") REFERENCES "crawl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_entry" ADD CONSTRAINT "usage_entry_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "team_slot" ADD CONSTRAINT "team_slot_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "page_cache" ADD CONSTRAINT "page_cache_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

