-- CreateTable
CREATE TABLE "browser_session" (
    "id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "api_key_id" UUID,
    "status" TEXT NOT NULL DEFAULT 'starting',
    "ttl_seconds" INTEGER NOT NULL,
    "activity_ttl_seconds" INTEGER NOT NULL,
    "stream_web_view" BOOLEAN NOT NULL,
    "profile_name" TEXT,
    "profile_save" BOOLEAN NOT NULL DEFAULT false,
    "host_id" TEXT,
    "cdp_token" TEXT NOT NULL,
    "view_token" TEXT NOT NULL,
    "interactive_token" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "last_activity_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),
    "end_reason" TEXT,
    "duration_ms" INTEGER,
    "credits_billed" INTEGER,

    CONSTRAINT "browser_session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "browser_host" (
    "id" TEXT NOT NULL,
    "task_queue" TEXT NOT NULL,
    "relay_url" TEXT NOT NULL,
    "relay_secret" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stopped_at" TIMESTAMPTZ(3),

    CONSTRAINT "browser_host_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "browser_session_team_id_status_idx" ON "browser_session"("team_id", "status");

-- AddForeignKey
ALTER TABLE "browser_session" ADD CONSTRAINT "browser_session_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

