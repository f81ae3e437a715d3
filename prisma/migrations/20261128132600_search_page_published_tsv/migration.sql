-- A time filter with a common word (bench:search: `qdr:m` with a word in 43 % of pages took
-- 140-170 ms at 1,000,000 pages): the full-text index also holds each page's date, so one GIN
-- scan intersects the date range with the word's postings, skipping through them, instead of
-- turning all of the word's postings into a bitmap to AND with the date index's. It replaces
-- the tsvector-only index (a query without a date uses it as before) and costs one more key
-- per page. btree_gin (GIN operator classes for timestamptz) ships with PostgreSQL and is a
-- trusted extension. Building the index reads every existing page once (about 2 minutes per
-- million pages) and holds writes to search_page meanwhile.
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX "search_page_published_tsv_idx" ON "search_page" USING GIN ("published_at", "tsv");
DROP INDEX "search_page_tsv_idx";
