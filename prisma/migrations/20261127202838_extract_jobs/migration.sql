-- CreateTable
CREATE TABLE "extract_job" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "api_key_id" UUID,
    "options" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'processing',
    "data" JSONB,
    "sources" JSONB,
    "warning" TEXT,
    "error" TEXT,
    "job_ids" UUID[],
    "prompt_tokens" INTEGER NOT NULL DEFAULT 0,
    "completion_tokens" INTEGER NOT NULL DEFAULT 0,
    "credits_used" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "purged_at" TIMESTAMPTZ(3),

    CONSTRAINT "extract_job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "extract_job_expires_at_idx" ON "extract_job"("expires_at");

-- AddForeignKey
ALTER TABLE "extract_job" ADD CONSTRAINT "extract_job_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
