-- What proxy auto learned of hosts, shared by every worker (platform/net/proxy-pools/shared-tiers.ts).
-- UNLOGGED like the host budget: a crash of PostgreSQL empties it, which only makes hosts climb again.
-- expires_at is PROXY_TIER_SHARE_MS after the last raise.
-- CreateTable
CREATE UNLOGGED TABLE "proxy_host_tier" (
    "key" TEXT NOT NULL,
    "tier" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "proxy_host_tier_pkey" PRIMARY KEY ("key")
);
