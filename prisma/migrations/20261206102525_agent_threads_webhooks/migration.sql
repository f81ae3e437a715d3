-- AlterTable
ALTER TABLE "webhook_event" ADD COLUMN     "agent_id" UUID,
ALTER COLUMN "crawl_id" DROP NOT NULL;

-- AlterTable
ALTER TABLE "agent_job" ADD COLUMN     "message" TEXT,
ADD COLUMN     "mode" TEXT NOT NULL DEFAULT 'extract',
ADD COLUMN     "stop_reason" TEXT,
ADD COLUMN     "thread_id" UUID,
ADD COLUMN     "turn" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "agent_thread" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_thread_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "agent_thread_updated_at_idx" ON "agent_thread"("updated_at");

-- CreateIndex
CREATE INDEX "webhook_event_agent_id_state_next_attempt_at_idx" ON "webhook_event"("agent_id", "state", "next_attempt_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_event_agent_id_type_item_key_key" ON "webhook_event"("agent_id", "type", "item_key");

-- CreateIndex
CREATE INDEX "agent_job_team_id_created_at_idx" ON "agent_job"("team_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "agent_job_thread_id_turn_key" ON "agent_job"("thread_id", "turn");

-- AddForeignKey
ALTER TABLE "webhook_event" ADD CONSTRAINT "webhook_event_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agent_job"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_job" ADD CONSTRAINT "agent_job_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "agent_thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_thread" ADD CONSTRAINT "agent_thread_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- An outbox event belongs to a crawl or to an agent run (Prisma does not model CHECK constraints).
ALTER TABLE "webhook_event" ADD CONSTRAINT "webhook_event_one_owner" CHECK (num_nonnulls("crawl_id", "agent_id") = 1);
