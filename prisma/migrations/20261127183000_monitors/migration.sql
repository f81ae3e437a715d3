-- CreateTable
CREATE TABLE "monitor" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "api_key_id" UUID,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "cron" TEXT NOT NULL,
    "schedule_text" TEXT,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "targets" JSONB NOT NULL,
    "webhook" JSONB,
    "notification" JSONB,
    "retention_days" INTEGER NOT NULL,
    "goal" TEXT,
    "judge_enabled" BOOLEAN NOT NULL DEFAULT false,
    "estimated_credits_per_month" INTEGER,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "task_queue" TEXT NOT NULL,
    "last_run_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "monitor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_check" (
    "id" UUID NOT NULL,
    "monitor_id" UUID NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "trigger" TEXT NOT NULL,
    "scheduled_for" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "estimated_credits" INTEGER,
    "actual_credits" INTEGER,
    "summary" JSONB NOT NULL,
    "target_results" JSONB NOT NULL DEFAULT '[]',
    "notification_status" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "monitor_check_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_check_page" (
    "id" UUID NOT NULL,
    "check_id" UUID NOT NULL,
    "target_id" TEXT NOT NULL,
    "url_key" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "previous_scrape_id" UUID,
    "current_scrape_id" UUID,
    "status_code" INTEGER,
    "error" TEXT,
    "diff" JSONB,
    "snapshot" JSONB,
    "judgment" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "monitor_check_page_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "monitor_team_id_status_created_at_idx" ON "monitor"("team_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "monitor_task_queue_status_idx" ON "monitor"("task_queue", "status");

-- CreateIndex
CREATE UNIQUE INDEX "monitor_check_workflow_id_key" ON "monitor_check"("workflow_id");

-- CreateIndex
CREATE INDEX "monitor_check_monitor_id_created_at_idx" ON "monitor_check"("monitor_id", "created_at");

-- CreateIndex
CREATE INDEX "monitor_check_page_check_id_status_idx" ON "monitor_check_page"("check_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "monitor_check_page_check_id_target_id_url_key_key" ON "monitor_check_page"("check_id", "target_id", "url_key");

-- AddForeignKey
ALTER TABLE "monitor" ADD CONSTRAINT "monitor_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_check" ADD CONSTRAINT "monitor_check_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_check_page" ADD CONSTRAINT "monitor_check_page_check_id_fkey" FOREIGN KEY ("check_id") REFERENCES "monitor_check"("id") ON DELETE CASCADE ON UPDATE CASCADE;
