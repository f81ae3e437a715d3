-- AlterTable
ALTER TABLE "crawl" ADD COLUMN     "task_queue" TEXT,
ADD COLUMN     "workflow_started_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "team_slot" ADD COLUMN     "holder_group" TEXT;

-- CreateTable
CREATE TABLE "browser_demand" (
    "holder" TEXT NOT NULL,
    "pool" TEXT NOT NULL,
    "team_id" UUID NOT NULL,
    "group_id" TEXT NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "served_by" TEXT,
    "served_at" TIMESTAMPTZ(3),

    CONSTRAINT "browser_demand_pkey" PRIMARY KEY ("holder")
);

-- CreateTable
CREATE TABLE "browser_lease" (
    "holder" TEXT NOT NULL,
    "pool" TEXT NOT NULL,
    "team_id" UUID NOT NULL,
    "group_id" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "alive_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "browser_lease_pkey" PRIMARY KEY ("holder")
);

-- CreateIndex
CREATE INDEX "browser_demand_pool_requested_at_idx" ON "browser_demand"("pool", "requested_at");

-- CreateIndex
CREATE INDEX "browser_demand_group_id_idx" ON "browser_demand"("group_id");

-- CreateIndex
CREATE INDEX "browser_lease_pool_team_id_idx" ON "browser_lease"("pool", "team_id");

-- CreateIndex
CREATE INDEX "browser_lease_group_id_idx" ON "browser_lease"("group_id");

-- CreateIndex
CREATE INDEX "crawl_status_workflow_started_at_idx" ON "crawl"("status", "workflow_started_at");


-- Crawls created before this column existed were started together with their row.
UPDATE "crawl" SET "workflow_started_at" = "created_at" WHERE "workflow_started_at" IS NULL;
