-- A host that throttled (429 or 503) in the last 10 minutes is never wide open, however far it
-- has recovered since: every turn there is asked of host_acquire, so a throttled answer one worker
-- gets pauses the host for every other worker's next request at once. A wide-open host's turns
-- are handed on inside a worker for up to 500 ms without a statement (jobs/politeness/host-gate.ts),
-- which at a host that throttles again would let other workers start requests inside its
-- Retry-After for that long. Only the last condition of the wide-open answer is new.
CREATE OR REPLACE FUNCTION host_acquire(p_host TEXT, p_holder TEXT, p_team TEXT, p_max INTEGER, p_interval_ms INTEGER, p_lease_ms INTEGER, p_wait_ms INTEGER, p_done_holder TEXT)
RETURNS TABLE (granted BOOLEAN, wait_ms INTEGER, reason TEXT, wide_open BOOLEAN)
LANGUAGE plpgsql AS $$
DECLARE
  b host_budget%ROWTYPE;
  t TIMESTAMPTZ := clock_timestamp();
  due TIMESTAMPTZ;
  running INTEGER;
  mine INTEGER;
  fewest INTEGER;
  anyone_waits BOOLEAN;
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
  SELECT coalesce(sum(n), 0), coalesce(sum(n) FILTER (WHERE team_id = p_team), 0), min(n) FILTER (WHERE waits AND team_id <> p_team),
      coalesce(bool_or(waits), FALSE)
    INTO running, mine, fewest, anyone_waits
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
    -- Wide open: nothing this host's budget says could refuse a request for now (see the header).
    RETURN QUERY SELECT TRUE, 0, NULL::TEXT,
      p_interval_ms = 0 AND b.interval_ms = 0 AND b.strikes = 0 AND b.concurrency >= p_max
      AND NOT anyone_waits AND (running + 1) * 4 <= p_max * 3
      AND coalesce(b.throttled_at, '-infinity') < t - interval '10 minutes';
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
  RETURN QUERY SELECT FALSE, CASE WHEN due > t THEN ceil(extract(epoch FROM due - t) * 1000)::INTEGER ELSE 0 END, why, FALSE;
END $$;
