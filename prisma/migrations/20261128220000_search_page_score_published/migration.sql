-- A time filter with a common word (bench:search: `qdr:m` with a word in 43 % of pages, 6,900
-- matches at 1,000,000 pages) read every match through the full-text index and fetched each
-- one's row for its score: 36 ms, most of it proportional to the range. With the date in the
-- score-ordered indexes, the walk in score order checks the date in the index and reads only
-- the range's pages' tsvectors until it has its candidates (about 460 pages: 3.5 ms). Each
-- index gets 8 bytes more per page; building both takes a few seconds per million pages.
DROP INDEX "search_page_team_score_idx";
CREATE INDEX "search_page_team_score_idx" ON "search_page" ("team_id", "score" DESC, "published_at");
DROP INDEX "search_page_score_idx";
CREATE INDEX "search_page_score_idx" ON "search_page" ("score" DESC, "published_at");
