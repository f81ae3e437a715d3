-- CreateTable
CREATE TABLE "browser_profile" (
    "team_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "state" BYTEA,
    "size_bytes" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3),
    "writer_session_id" UUID,
    "last_save_error" TEXT,

    CONSTRAINT "browser_profile_pkey" PRIMARY KEY ("team_id","name")
);

-- AddForeignKey
ALTER TABLE "browser_profile" ADD CONSTRAINT "browser_profile_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

