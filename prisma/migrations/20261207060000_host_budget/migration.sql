-- The host budget is state of the moment, rewritten at every request: its tables are UNLOGGED (no
-- WAL, so a turn costs no disk flush and holds the host's row lock for no fsync). A crash of
-- PostgreSQL empties them, which only gives every host its full budget again; leases lapse anyway.
-- CreateTable
CREATE UNLOGGED TABLE "host_budget" (
    "host" TEXT NOT NULL,
    "concurrency" DOUBLE PRECISION NOT NULL,
    "interval_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "last_start" TIMESTAMPTZ(3),
    "paused_until" TIMESTAMPTZ(3),
    "strikes" INTEGER NOT NULL DEFAULT 0,
    "throttled_at" TIMESTAMPTZ(3),

    CONSTRAINT "host_budget_pkey" PRIMARY KEY ("host")
);

-- CreateTable
CREATE UNLOGGED TABLE "host_lease" (
    "host" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "waiting" BOOLEAN NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "host_lease_pkey" PRIMARY KEY ("host","holder")
);

-- One request's turn at a host (jobs/politeness/host-leases.ts), in one statement: the host's row is
-- locked, so every worker's acquires of a host are serialised and each statement inside sees the
-- leases the previous acquire committed; leases past their expiry do not count. Granted when the
-- host is not paused, the interval since the last start has passed (the largest of the caller's floor and the host's adapted interval), fewer
-- requests than the host's adapted concurrency are in flight, and no other team waits with fewer
-- requests in flight there than the caller's team. Otherwise the caller is recorded as waiting
-- (until p_wait_ms from now unless it asks again) and told how long the host is closed for (0: ask
-- again soon) and why. p_done_holder, when given, is a request of the same host that ended well
-- (host_release's 'ok', applied first): a worker hands its ended turns on with its next ask, so a
-- page costs one statement, not two.
CREATE FUNCTION host_acquire(p_host TEXT, p_holder TEXT, p_team TEXT, p_max INTEGER, p_interval_ms INTEGER, p_lease_ms INTEGER, p_wait_ms INTEGER, p_done_holder TEXT)
RETURNS TABLE (granted BOOLEAN, wait_ms INTEGER, reason TEXT)
LANGUAGE plpgsql AS $$
DECLARE
  b host_budget%ROWTYPE;
  t TIMESTAMPTZ := clock_timestamp();
  due TIMESTAMPTZ;
  running INTEGER;
  mine INTEGER;
  fewest INTEGER;
  why TEXT;
BEGIN
  -- Nothing here is worth waiting for a disk flush at commit (the transaction is the caller's one statement).
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT * INTO b FROM host_budget WHERE host = p_host FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO host_budget (host, concurrency) VALUES (p_host, p_max) ON CONFLICT (host) DO NOTHING;
    SELECT * INTO b FROM host_budget WHERE host = p_host FOR UPDATE;
  END IF;
  IF p_done_holder IS NOT NULL THEN
    -- host_release's 'ok', on the locked row.
    DELETE FROM host_lease WHERE host = p_host AND holder = p_done_holder;
    b.concurrency := least(p_max, b.concurrency + 1 / b.concurrency);
    b.interval_ms := CASE WHEN b.interval_ms * 0.95 < 1 THEN 0 ELSE b.interval_ms * 0.95 END;
    b.strikes := 0;
  END IF;
  -- Live requests in flight, the caller's team's, and the fewest in flight of another team that waits.
  SELECT coalesce(sum(n), 0), coalesce(sum(n) FILTER (WHERE team_id = p_team), 0), min(n) FILTER (WHERE waits AND team_id <> p_team)
    INTO running, mine, fewest
    FROM (
      SELECT team_id, count(*) FILTER (WHERE NOT waiting) AS n, bool_or(waiting) AS waits
      FROM host_lease WHERE host = p_host AND holder <> p_holder AND expires_at >= t
      GROUP BY team_id
    ) teams;
  -- Without an interval there is nothing to wait for (last_start is kept to the millisecond, rounded, so it may lie a little ahead).
  IF greatest(p_interval_ms, b.interval_ms) > 0 THEN
    due := b.last_start + greatest(p_interval_ms, b.interval_ms) * interval '1 millisecond';
  END IF;
  IF b.paused_until > t THEN
    why := 'paused';
    due := greatest(due, b.paused_until);
  ELSIF due > t THEN
    why := 'interval';
  ELSIF running >= greatest(1, least(p_max, floor(b.concurrency)::INTEGER)) THEN
    why := 'busy';
  ELSIF fewest < mine THEN
    why := 'share';
  END IF;
  IF why IS NULL THEN
    INSERT INTO host_lease (host, holder, team_id, waiting, expires_at)
    VALUES (p_host, p_holder, p_team, FALSE, t + p_lease_ms * interval '1 millisecond')
    ON CONFLICT (host, holder) DO UPDATE SET waiting = FALSE, expires_at = EXCLUDED.expires_at;
    UPDATE host_budget SET last_start = t, concurrency = b.concurrency, interval_ms = b.interval_ms, strikes = b.strikes WHERE host = p_host;
    RETURN QUERY SELECT TRUE, 0, NULL::TEXT;
    RETURN;
  END IF;
  -- Waiting is the rare path: lapsed leases (a killed worker's) are cleared here.
  DELETE FROM host_lease WHERE host = p_host AND expires_at < t;
  INSERT INTO host_lease (host, holder, team_id, waiting, expires_at)
  VALUES (p_host, p_holder, p_team, TRUE, t + p_wait_ms * interval '1 millisecond')
  ON CONFLICT (host, holder) DO UPDATE SET waiting = TRUE, expires_at = EXCLUDED.expires_at;
  IF p_done_holder IS NOT NULL THEN
    UPDATE host_budget SET concurrency = b.concurrency, interval_ms = b.interval_ms, strikes = b.strikes WHERE host = p_host;
  END IF;
  RETURN QUERY SELECT FALSE, CASE WHEN due > t THEN ceil(extract(epoch FROM due - t) * 1000)::INTEGER ELSE 0 END, why;
END $$;

-- The end of a request (or of a wait given up: p_outcome 'none') and what the host's answer says of
-- its rate, in one statement. The formulas are jobs/politeness/host-rate.ts nextHostRate's (tested
-- there): 'ok' climbs back (concurrency + 1/concurrency, the interval 5 % shorter, under 1 ms none);
-- 'slow' takes a quarter off the concurrency; 'throttled' halves it, doubles the interval (at least
-- 50 ms) and pauses the host for p_retry_after_ms, or without one for the backoff
-- min(p_backoff_max_ms, p_backoff_base_ms * 2^(strikes - 1)) * p_jitter.
CREATE FUNCTION host_release(
  p_host TEXT, p_holder TEXT, p_outcome TEXT, p_max INTEGER,
  p_retry_after_ms INTEGER, p_backoff_base_ms INTEGER, p_backoff_max_ms INTEGER, p_jitter DOUBLE PRECISION
) RETURNS TIMESTAMPTZ
LANGUAGE plpgsql AS $$
DECLARE
  t TIMESTAMPTZ := clock_timestamp();
  paused TIMESTAMPTZ;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  DELETE FROM host_lease WHERE host = p_host AND holder = p_holder;
  IF p_outcome = 'ok' THEN
    UPDATE host_budget SET
      concurrency = least(p_max, concurrency + 1 / concurrency),
      interval_ms = CASE WHEN interval_ms * 0.95 < 1 THEN 0 ELSE interval_ms * 0.95 END,
      strikes = 0
    WHERE host = p_host AND (concurrency < p_max OR interval_ms > 0 OR strikes > 0);
  ELSIF p_outcome = 'slow' THEN
    UPDATE host_budget SET concurrency = greatest(1, least(p_max, concurrency) * 0.75) WHERE host = p_host;
  ELSIF p_outcome = 'throttled' THEN
    UPDATE host_budget SET
      concurrency = greatest(1, least(p_max, concurrency) / 2),
      interval_ms = least(p_backoff_max_ms, greatest(50, interval_ms * 2)),
      strikes = strikes + 1,
      throttled_at = t,
      paused_until = greatest(paused_until, t + coalesce(
        p_retry_after_ms,
        least(p_backoff_max_ms, p_backoff_base_ms * power(2, strikes)) * p_jitter
      ) * interval '1 millisecond')
    WHERE host = p_host
    RETURNING paused_until INTO paused;
  END IF;
  RETURN paused;
END $$;
