// Temporal over mTLS: a TLS-terminating proxy (client certificates required,
// certificates made at test time) in front of the suite's dev server; the real
// worker and gateway reach Temporal only through it and run a crawl end to
// end. A wrong certificate or server name stops a process with one line naming
// Temporal, the address and the TLS cause.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureSite, treeSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitFor, type Harness } from '../support/harness.ts';
import { makeTlsFiles, type TlsFiles } from '../support/tls-certificates.ts';
import { startTlsProxy, type TlsProxy } from '../support/tls-proxy.ts';

const PAGES = 5;
let h: Harness;
let site: FixtureSite;
let files: TlsFiles;
let proxy: TlsProxy;

beforeAll(async () => {
  files = makeTlsFiles();
  h = await startHarness();
  proxy = await startTlsProxy({ upstream: h.config.temporal.address!, ca: files.ca, cert: files.serverCert, key: files.serverKey });
  site = await startFixtureSite(treeSite(PAGES));
});

afterAll(async () => {
  await site?.close();
  await h?.stop();
  await proxy?.close();
  files?.remove();
});

const mtls = () => ({
  TEMPORAL_ADDRESS: proxy.address,
  TEMPORAL_TLS_CA_FILE: files.ca,
  TEMPORAL_TLS_CERT_FILE: files.clientCert,
  TEMPORAL_TLS_KEY_FILE: files.clientKey,
});

/** The one line a process that cannot continue prints; nothing of a stack trace beside it. */
function fatalLine(output: string[]): string {
  const fatal = output.filter((line) => line.includes('cannot continue'));
  expect(fatal).toHaveLength(1);
  expect(output.filter((line) => /^\s+at /.test(line))).toEqual([]);
  return fatal[0];
}

it('runs a crawl through a worker and a gateway that reach Temporal only over mTLS', async () => {
  const workerOutput: string[] = [];
  await h.spawnWorker({ env: mtls(), output: workerOutput });
  const gateway = await h.spawnGateway({ env: mtls() });
  expect(workerOutput.some((line) => line.includes('"msg":"worker ready"') && line.includes('"tls":true'))).toBe(true);
  expect([...proxy.clientNames]).toEqual(['client']);

  const call = async (path: string, init: RequestInit = {}) =>
    (await fetch(`${gateway.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${h.apiKey}`, 'content-type': 'application/json' } })).json();
  const started = await call('/v2/crawl', { method: 'POST', body: JSON.stringify({ url: `${site.url}/`, limit: 100 }) });
  expect(started.success).toBe(true);
  const done = await waitFor(
    'the crawl to finish',
    async () => {
      const body = await call(`/v2/crawl/${started.id}?limit=1000`);
      return body.status !== 'scraping' ? body : undefined;
    },
    120_000,
  );
  expect(done.status).toBe('completed');
  expect(done.completed).toBe(PAGES);
  for (let i = 0; i < PAGES; i++) expect(site.hits.get(i === 0 ? '/' : `/p/${i}`)).toBe(1);
});

it('stops a worker whose client certificate comes from another CA, in one line', async () => {
  const output: string[] = [];
  await expect(
    h.spawnWorker({ env: { ...mtls(), TEMPORAL_TLS_CERT_FILE: files.foreignClientCert, TEMPORAL_TLS_KEY_FILE: files.foreignClientKey }, output }),
  ).rejects.toThrow(/worker exited with 1/);
  const line = fatalLine(output);
  expect(line).toContain(
    `[worker] cannot continue: TLS to Temporal at ${proxy.address} failed: the server hung up right after the TLS handshake without a word: it refused the client certificate of TEMPORAL_TLS_CERT_FILE`,
  );
});

it('stops a gateway that has no client certificate, in one line', async () => {
  const output: string[] = [];
  const { TEMPORAL_TLS_CERT_FILE: _cert, TEMPORAL_TLS_KEY_FILE: _key, ...serverOnly } = mtls();
  await expect(h.spawnGateway({ env: serverOnly, output })).rejects.toThrow(/gateway exited with 1/);
  expect(fatalLine(output)).toContain(`[gateway] cannot continue: TLS to Temporal at ${proxy.address} failed: the server requires a client certificate`);
});

it('stops a gateway that expects another server name, in one line', async () => {
  const output: string[] = [];
  await expect(h.spawnGateway({ env: { ...mtls(), TEMPORAL_TLS_SERVER_NAME: 'temporal.example' }, output })).rejects.toThrow(/gateway exited with 1/);
  expect(fatalLine(output)).toContain(
    `[gateway] cannot continue: TLS to Temporal at ${proxy.address} failed: the server's certificate is not valid for the name temporal.example (TEMPORAL_TLS_SERVER_NAME)`,
  );
});

it("stops a browser host (the worker's own connection) that trusts another CA, in one line", async () => {
  const output: string[] = [];
  await expect(h.spawnBrowserHost({ env: { ...mtls(), TEMPORAL_TLS_CA_FILE: files.otherCa }, output })).rejects.toThrow(/browser-host exited with 1/);
  expect(fatalLine(output)).toContain(
    `[browser-host] cannot continue: TLS to Temporal at ${proxy.address} failed: the server's certificate is not trusted by TEMPORAL_TLS_CA_FILE`,
  );
});
