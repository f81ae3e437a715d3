// The service never crawls itself, even with 127.0.0.1 allowlisted (what the
// docs/security.md suggests for local sites): the gateway, the Temporal frontend and UI
// and PostgreSQL are refused at request time and when links or redirects lead
// there. The fixture site is on 127.0.0.1 as well, on a port of its own.
import { inject, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/platform/process/ports.ts';
import { page, startFixtureSite, type FixtureSite } from '../support/fixture-site.ts';
import { startHarness, waitForCrawl, type Harness } from '../support/harness.ts';

let h: Harness;
let open: Harness;
let site: FixtureSite;
let gatewayPort: number;
let temporalPort: number;
let postgresPort: number;
let uiPort: number;

const servicePattern = (port: number, name: string) => new RegExp(`127\\.0\\.0\\.1:${port} is this service's ${name}\\.`);

beforeAll(async () => {
  gatewayPort = await freePort();
  temporalPort = Number(inject('temporalAddress').split(':').at(-1));
  postgresPort = Number(new URL(inject('databaseUrl')).port);
  h = await startHarness({
    crawl: { allowPrivateAddresses: false, privateAddressAllowlist: ['127.0.0.1'] },
    gateway: { host: '127.0.0.1', port: gatewayPort },
  });
  uiPort = h.config.temporal.devUiPort;
  // Guard off (tests, development): the service's own ports are still refused.
  open = await startHarness({ crawl: { allowPrivateAddresses: true } });
  await h.startWorker();
  const self = (port: number, path = '/') => `http://127.0.0.1:${port}${path}`;
  site = await startFixtureSite({
    '/': page(
      'Home',
      [
        `<a href="/fine">fine</a>`,
        `<a href="${self(gatewayPort, '/v2/crawl/active')}">gateway</a>`,
        `<a href="${self(temporalPort)}">temporal</a>`,
        `<a href="${self(uiPort, '/api/v1/namespaces/default/workflows')}">ui</a>`,
        `<a href="${self(postgresPort)}">postgres</a>`,
        `<a href="/to-gateway">redirect</a>`,
      ].join(' '),
    ),
    '/fine': page('Fine', 'a page of the site'),
    '/to-gateway': () => ({ status: 302, headers: { location: self(gatewayPort, '/v2/team/credit-usage') } }),
  });
});

afterAll(async () => {
  await site?.close();
  await open?.stop();
  await h?.stop();
});

describe('a crawl of the service itself', () => {
  it('is refused at request time with 400 BLOCKED_ADDRESS naming the listener, guard on or off', async () => {
    const cases: [string, number, string][] = [
      [`http://127.0.0.1:${gatewayPort}/v2/crawl/active`, gatewayPort, 'gateway'],
      [`http://127.0.0.1:${temporalPort}/`, temporalPort, 'Temporal frontend'],
      [`http://127.0.0.1:${uiPort}/api/v1/namespaces/default/workflows`, uiPort, 'Temporal UI'],
      [`http://127.0.0.1:${postgresPort}/`, postgresPort, 'PostgreSQL'],
    ];
    for (const harness of [h, open]) {
      for (const [url, port, name] of cases) {
        // The open harness's gateway listens elsewhere, but the ports its settings name are refused all the same.
        if (harness === open && name === 'gateway') continue;
        const res = await harness.api('/v2/crawl', { method: 'POST', json: { url } });
        const body = await res.json();
        expect(res.status, url).toBe(400);
        expect(body.code).toBe('BLOCKED_ADDRESS');
        expect(body.error).toMatch(`Refused to crawl ${url}`);
        expect(body.error).toMatch(servicePattern(port, name));
      }
    }
  });

  it('is refused for a host name that resolves to a listener, and for webhooks', async () => {
    const byName = await h.api('/v2/crawl', { method: 'POST', json: { url: `http://localhost:${gatewayPort}/` } });
    expect(byName.status).toBe(400);
    expect((await byName.json()).error).toMatch(
      new RegExp(`localhost:${gatewayPort} resolves to (127\\.0\\.0\\.1|\\[::1\\]):${gatewayPort}, this service's gateway`),
    );
    const hook = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, webhook: { url: `http://127.0.0.1:${uiPort}/hook` } } });
    expect(hook.status).toBe(400);
    expect((await hook.json()).error).toMatch(`Refused to deliver webhooks to http://127.0.0.1:${uiPort}/hook`);
  });

  it('fails the pages that links and redirects lead to on the listeners, and crawls the rest', async () => {
    const res = await h.api('/v2/crawl', { method: 'POST', json: { url: `${site.url}/`, allowExternalLinks: true, sitemap: 'skip' } });
    expect(res.status).toBe(200);
    const { id } = await res.json();
    const status = await waitForCrawl(h, id);
    expect(status.data.map((d) => d.metadata.sourceURL).sort()).toEqual([`${site.url}/`, `${site.url}/fine`]);
    const { errors } = await (await h.api(`/v2/crawl/${id}/errors`)).json();
    const byUrl = new Map<string, string>(errors.map((e: { url: string; error: string }) => [e.url, e.error]));
    expect(byUrl.get(`http://127.0.0.1:${gatewayPort}/v2/crawl/active`)).toMatch(servicePattern(gatewayPort, 'gateway'));
    expect(byUrl.get(`http://127.0.0.1:${temporalPort}/`)).toMatch(servicePattern(temporalPort, 'Temporal frontend'));
    expect(byUrl.get(`http://127.0.0.1:${uiPort}/api/v1/namespaces/default/workflows`)).toMatch(servicePattern(uiPort, 'Temporal UI'));
    expect(byUrl.get(`http://127.0.0.1:${postgresPort}/`)).toMatch(servicePattern(postgresPort, 'PostgreSQL'));
    expect(byUrl.get(`${site.url}/to-gateway`)).toMatch(servicePattern(gatewayPort, 'gateway'));
    expect(byUrl.size).toBe(5);
  });
});
