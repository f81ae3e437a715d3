-- A page's tsvector is kept in its row (compressed) rather than in TOAST while it fits: a walk
-- through the pages in score order tests each page's tsvector, and fetching it from TOAST made
-- that about four times slower (bench:search). Rows stored before keep theirs where they are.
ALTER TABLE "search_page" ALTER COLUMN "tsv" SET STORAGE MAIN;

-- Newest first (sbd:1) with undated pages last, the order a date walk needs; it serves the
-- date-range filters as the index it replaces did.
CREATE INDEX "search_page_published_desc_idx" ON "search_page" ("published_at" DESC NULLS LAST);
DROP INDEX "search_page_published_idx";
