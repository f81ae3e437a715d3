-- CreateTable
CREATE TABLE "search_page" (
    "team_id" UUID NOT NULL,
    "url_key" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "ext" TEXT,
    "content_type" TEXT,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "lang" TEXT,
    "ts_config" TEXT NOT NULL,
    "tsv" tsvector NOT NULL,
    "published_at" TIMESTAMPTZ(3),
    "outbound_domains" TEXT[],
    "category" TEXT,
    "news" BOOLEAN NOT NULL DEFAULT false,
    "image_url" TEXT,
    "shareable" BOOLEAN NOT NULL,
    "score" REAL NOT NULL,
    "crawl_id" UUID NOT NULL,
    "indexed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "search_page_pkey" PRIMARY KEY ("team_id","url_key")
);

-- CreateTable
CREATE TABLE "search_image" (
    "team_id" UUID NOT NULL,
    "page_url_key" TEXT NOT NULL,
    "src" TEXT NOT NULL,
    "page_url" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "alt" TEXT NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "tsv" tsvector NOT NULL,
    "shareable" BOOLEAN NOT NULL,
    "score" REAL NOT NULL,

    CONSTRAINT "search_image_pkey" PRIMARY KEY ("team_id","page_url_key","src")
);

-- CreateIndex
CREATE INDEX "search_page_host_idx" ON "search_page"("host");


-- Indexes Prisma's schema cannot express: full-text (GIN on the tsvectors), trigrams on the URL
-- for inurl: (pg_trgm ships with PostgreSQL; creating it needs a role that may), the outbound
-- domains for related:, the date for time filters, and the page score the ranking starts from.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "search_page_tsv_idx" ON "search_page" USING GIN ("tsv");
CREATE INDEX "search_page_url_trgm_idx" ON "search_page" USING GIN ("url_key" gin_trgm_ops);
CREATE INDEX "search_page_outbound_idx" ON "search_page" USING GIN ("outbound_domains");
CREATE INDEX "search_page_published_idx" ON "search_page" ("published_at");
CREATE INDEX "search_page_score_idx" ON "search_page" ("score" DESC);
CREATE INDEX "search_page_team_score_idx" ON "search_page" ("team_id", "score" DESC);
CREATE INDEX "search_image_tsv_idx" ON "search_image" USING GIN ("tsv");
-- site: and domain filters match subdomains by a prefix of the reversed host.
CREATE INDEX "search_page_host_reversed_idx" ON "search_page" (reverse("host") text_pattern_ops);
