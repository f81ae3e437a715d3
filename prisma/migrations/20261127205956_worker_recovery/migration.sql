-- Worker processes and the activity attempts they run: a worker fails the attempts
-- of a process that stopped heartbeating instead of waiting out their heartbeat timeout.
CREATE TABLE "worker_process" (
    "id" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "worker_process_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "worker_process_heartbeat_at_idx" ON "worker_process"("heartbeat_at");

CREATE TABLE "activity_attempt" (
    "workflow_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "activity_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "task_token" BYTEA NOT NULL,
    "worker_process" TEXT NOT NULL,
    "slot_holder_prefix" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_attempt_pkey" PRIMARY KEY ("workflow_id","run_id","activity_id","attempt")
);

CREATE INDEX "activity_attempt_worker_process_idx" ON "activity_attempt"("worker_process");
