-- CreateTable
CREATE TABLE "change_snapshot" (
    "team_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "tag" TEXT NOT NULL DEFAULT '',
    "markdown" TEXT NOT NULL,
    "json" JSONB,
    "scraped_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "change_snapshot_pkey" PRIMARY KEY ("team_id","url","tag")
);

-- AddForeignKey
ALTER TABLE "change_snapshot" ADD CONSTRAINT "change_snapshot_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

