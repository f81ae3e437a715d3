import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../src/config.ts';
import { serviceEndpointAt, serviceEndpoints, urlPort } from '../../../src/platform/net/service-endpoints.ts';

function config(overrides: {
  gateway?: Partial<Config['gateway']>;
  database?: Partial<Config['database']>;
  temporal?: Partial<Config['temporal']>;
  crawl?: Partial<Config['crawl']>;
}): Config {
  const base = loadConfig();
  return {
    ...base,
    gateway: { ...base.gateway, host: '0.0.0.0', port: 3002, publicBaseUrl: 'http://localhost:3002', ...overrides.gateway },
    database: { ...base.database, url: undefined, embeddedPort: 54329, ...overrides.database },
    temporal: {
      ...base.temporal,
      address: undefined,
      devPort: 7233,
      devUiPort: 8233,
      devHttpPort: 7243,
      devMetricsPort: 7244,
      uiUrl: undefined,
      ...overrides.temporal,
    },
    crawl: { ...base.crawl, refusedEndpoints: [], ...overrides.crawl },
  };
}

const names = (c: Config) => serviceEndpoints(c).map((e) => `${e.name} ${e.host}:${e.port}`);

describe('serviceEndpoints', () => {
  it('lists what `npm start` runs when nothing external is configured', () => {
    expect(names(config({}))).toEqual([
      'gateway 0.0.0.0:3002',
      'gateway (PUBLIC_BASE_URL) localhost:3002',
      'Temporal frontend 127.0.0.1:7233',
      'Temporal UI 127.0.0.1:8233',
      'Temporal HTTP API 127.0.0.1:7243',
      'Temporal metrics endpoint 127.0.0.1:7244',
      'PostgreSQL 127.0.0.1:54329',
    ]);
  });

  it('follows the external services and the extra listeners the settings name', () => {
    const c = config({
      gateway: { host: '10.0.0.4', port: 8080, publicBaseUrl: 'https://crawl.example.com' },
      database: { url: 'postgresql://crawl:secret@db.internal/crawl' },
      temporal: { address: 'temporal:7233', uiUrl: 'http://temporal-ui:8080' },
      crawl: { refusedEndpoints: [{ host: 'fd00::5', port: 9000 }] },
    });
    expect(names(c)).toEqual([
      'gateway 10.0.0.4:8080',
      'gateway (PUBLIC_BASE_URL) crawl.example.com:443',
      'Temporal frontend temporal:7233',
      'Temporal UI temporal:8233',
      'Temporal HTTP API temporal:7243',
      'Temporal metrics endpoint temporal:7244',
      'Temporal UI (TEMPORAL_UI_URL) temporal-ui:8080',
      'PostgreSQL db.internal:5432',
      'listener (CRAWL_REFUSED_ENDPOINTS) fd00::5:9000',
    ]);
  });

  it('leaves out a PostgreSQL reached over a Unix socket', () => {
    expect(names(config({ database: { url: 'postgresql://crawl@/crawl?host=/var/run/postgresql' } })).filter((n) => n.startsWith('PostgreSQL'))).toEqual([]);
  });
});

describe('serviceEndpointAt', () => {
  const ui = { name: 'Temporal UI', host: '127.0.0.1', port: 8233 };
  const gateway = { name: 'gateway', host: '0.0.0.0', port: 3002 };
  const db = { name: 'PostgreSQL', host: 'db.internal', port: 5432 };
  const resolve = async (host: string) => (host === 'db.internal' ? ['10.9.8.7'] : Promise.reject(new Error('ENOTFOUND')));

  it('matches an IP listener on its address and port only', async () => {
    expect(await serviceEndpointAt('127.0.0.1', 8233, [ui])).toBe(ui);
    expect(await serviceEndpointAt('::ffff:127.0.0.1', 8233, [ui])).toBe(ui);
    expect(await serviceEndpointAt('127.0.0.1', 8234, [ui])).toBeUndefined();
    expect(await serviceEndpointAt('127.0.0.2', 8233, [ui])).toBeUndefined();
  });

  it('counts 0.0.0.0 and :: as the local machine', async () => {
    expect(await serviceEndpointAt('0.0.0.0', 8233, [ui])).toBe(ui);
    expect(await serviceEndpointAt('::', 8233, [ui])).toBe(ui);
  });

  it('matches a wildcard listener on every local address, and no other', async () => {
    expect(await serviceEndpointAt('127.0.0.9', 3002, [gateway])).toBe(gateway);
    expect(await serviceEndpointAt('::1', 3002, [gateway])).toBe(gateway);
    const own = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === 'IPv4');
    if (own) expect(await serviceEndpointAt(own.address, 3002, [gateway])).toBe(gateway);
    expect(await serviceEndpointAt('93.184.215.14', 3002, [gateway])).toBeUndefined();
  });

  it('resolves a listener named by host, and ignores one that does not resolve', async () => {
    expect(await serviceEndpointAt('10.9.8.7', 5432, [db], resolve)).toBe(db);
    expect(await serviceEndpointAt('10.9.8.6', 5432, [db], resolve)).toBeUndefined();
    expect(await serviceEndpointAt('10.9.8.7', 5432, [{ ...db, host: 'gone.internal' }], resolve)).toBeUndefined();
  });

  it('knows the default ports of URLs', () => {
    expect([urlPort(new URL('http://a/')), urlPort(new URL('https://a/')), urlPort(new URL('wss://a/')), urlPort(new URL('http://a:81/'))]).toEqual([
      80, 443, 443, 81,
    ]);
  });
});
