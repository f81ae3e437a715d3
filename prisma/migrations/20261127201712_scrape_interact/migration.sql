-- A browser session opened by POST /v2/scrape/{id}/interact names its scrape job.
ALTER TABLE "browser_session" ADD COLUMN "scrape_id" UUID;

-- One live interaction per scrape: two calls at once share one session.
CREATE UNIQUE INDEX "browser_session_live_scrape_key" ON "browser_session" ("scrape_id") WHERE "status" IN ('starting', 'active');
