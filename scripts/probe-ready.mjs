// Container healthcheck: `node scripts/probe-ready.mjs <url>` exits 0 when the
// URL answers 2xx. A file rather than `node -e "<code>"`, because podman's
// Docker-compatible API joins a healthcheck's arguments and splits them again at
// spaces, which breaks any inline code that contains one.
const url = process.argv[2];
const timeout = AbortSignal.timeout(8000);
fetch(url, { signal: timeout }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
