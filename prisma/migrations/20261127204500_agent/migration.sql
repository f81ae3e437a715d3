-- CreateTable
CREATE TABLE "agent_job" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "prompt" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'processing',
    "data" JSONB,
    "error" TEXT,
    "credits" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "agent_job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_step" (
    "agent_id" UUID NOT NULL,
    "step" INTEGER NOT NULL,
    "thought" TEXT,
    "tool" TEXT,
    "input" JSONB,
    "observation" JSONB,
    "credits" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "decided_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ran_at" TIMESTAMPTZ(3),

    CONSTRAINT "agent_step_pkey" PRIMARY KEY ("agent_id","step")
);

-- CreateIndex
CREATE INDEX "agent_job_created_at_idx" ON "agent_job"("created_at");

-- AddForeignKey
ALTER TABLE "agent_job" ADD CONSTRAINT "agent_job_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_step" ADD CONSTRAINT "agent_step_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agent_job"("id") ON DELETE CASCADE ON UPDATE CASCADE;
