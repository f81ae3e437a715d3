-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "team" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "concurrency_limit" INTEGER NOT NULL DEFAULT 2,
    "credit_balance" INTEGER NOT NULL DEFAULT 0,
    "flag_ignore_robots_txt" BOOLEAN NOT NULL DEFAULT false,
    "flag_robots_user_agent" BOOLEAN NOT NULL DEFAULT false,
    "flag_zero_data_retention" BOOLEAN NOT NULL DEFAULT false,
    "flag_search_anon" BOOLEAN NOT NULL DEFAULT false,
    "flag_search_zdr" BOOLEAN NOT NULL DEFAULT false,
    "webhook_signing_secret" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "team_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crawl" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "api_key_id" UUID,
    "url" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'scraping',
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "crawl_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crawl_url" (
    "id" BIGSERIAL NOT NULL,
    "crawl_id" UUID NOT NULL,
    "url_key" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "depth" INTEGER NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "claimed_by" TEXT,
    "claimed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "crawl_url_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crawl_page" (
    "id" BIGSERIAL NOT NULL,
    "crawl_id" UUID NOT NULL,
    "url_key" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "success" BOOLEAN NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "document" JSONB,
    "size_bytes" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "crawl_page_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "activity_log" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "api_key_id" UUID,
    "endpoint" TEXT NOT NULL,
    "api_version" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "target" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_log_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_key_key_hash_key" ON "api_key"("key_hash");

-- CreateIndex
CREATE INDEX "api_key_team_id_idx" ON "api_key"("team_id");

-- CreateIndex
CREATE INDEX "crawl_team_id_status_idx" ON "crawl"("team_id", "status");

-- CreateIndex
CREATE INDEX "crawl_url_crawl_id_state_id_idx" ON "crawl_url"("crawl_id", "state", "id");

-- CreateIndex
CREATE INDEX "crawl_url_crawl_id_claimed_by_idx" ON "crawl_url"("crawl_id", "claimed_by");

-- CreateIndex
CREATE UNIQUE INDEX "crawl_url_crawl_id_url_key_key" ON "crawl_url"("crawl_id", "url_key");

-- CreateIndex
CREATE INDEX "crawl_page_crawl_id_success_id_idx" ON "crawl_page"("crawl_id", "success", "id");

-- CreateIndex
CREATE UNIQUE INDEX "crawl_page_crawl_id_url_key_key" ON "crawl_page"("crawl_id", "url_key");

-- CreateIndex
CREATE INDEX "activity_log_team_id_created_at_id_idx" ON "activity_log"("team_id", "created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawl" ADD CONSTRAINT "crawl_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawl_url" ADD CONSTRAINT "crawl_url_crawl_id_fkey" FOREIGN KEY ("crawl_id") REFERENCES "crawl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawl_page" ADD CONSTRAINT "crawl_page_crawl_id_fkey" FOREIGN KEY ("crawl_id") REFERENCES "crawl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

