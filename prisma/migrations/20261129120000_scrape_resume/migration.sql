-- POST /v2/scrape: the request's fingerprint, by which the same request sent again (the SDKs'
-- resume after a 408) attaches to the running or just-ended scrape instead of starting another.
ALTER TABLE "crawl" ADD COLUMN "resume_key" TEXT, ADD COLUMN "resumable_until" TIMESTAMPTZ(3);

-- One scrape per team and request at a time: of two identical requests at once, the second's
-- insert waits for the first's and then fails, and it attaches to the first's scrape.
CREATE UNIQUE INDEX "crawl_team_resume_key" ON "crawl" ("team_id", "resume_key") WHERE "resume_key" IS NOT NULL;
