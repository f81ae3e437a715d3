// Profiles against real Chromium and PostgreSQL: a login's cookies (a session
// cookie among them), localStorage and IndexedDB survive into the next session
// of the same profile; one writer at a time (409 with upstream's wording), readers
// allowed and never saved; DELETE /v2/browser/profiles/{name}; the size cap.
import { chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page, type FixtureSite } from '../support/fixture-site.ts';
import { startSessionHarness } from '../support/session-harness.ts';
import { waitFor, type Harness } from '../support/harness.ts';

let h: Harness;
let site: FixtureSite;

const LOGIN = `<script>
document.cookie = 'remember=yes; path=/; max-age=86400';
localStorage.setItem('user', new URLSearchParams(location.search).get('user') || 'ada');
const open = indexedDB.open('app', 1);
open.onupgradeneeded = () => open.result.createObjectStore('kv');
open.onsuccess = () => {
  const tx = open.result.transaction('kv', 'readwrite');
  tx.objectStore('kv').put('xyz', 'token');
  tx.oncomplete = () => { document.title = 'logged in'; };
};
</script>`;

const CHECK = `<script>
const open = indexedDB.open('app', 1);
open.onupgradeneeded = () => open.result.createObjectStore('kv');
open.onsuccess = () => {
  const get = open.result.transaction('kv').objectStore('kv').get('token');
  get.onsuccess = () => { document.title = 'ls=' + localStorage.getItem('user') + ' idb=' + get.result; };
};
</script>`;

beforeAll(async () => {
  ({ h, site } = await startSessionHarness({
    '/login': { headers: { 'content-type': 'text/html', 'set-cookie': 'sid=abc; Path=/; HttpOnly' }, body: page('logging in', LOGIN) },
    '/check': page('checking', CHECK),
  }));
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await site?.close();
});

async function session(profile: Record<string, unknown>) {
  const res = await h.api('/v2/browser', { method: 'POST', json: { ttl: 300, profile } });
  return { status: res.status, body: await res.json() };
}

async function visit(cdpUrl: string, path: string, title: RegExp): Promise<string> {
  const browser = await chromium.connectOverCDP(cdpUrl);
  const tab = browser.contexts()[0].pages()[0];
  await tab.goto(`${site.url}${path}`);
  await waitFor(`the title of ${path}`, async () => title.test(await tab.title()), 15_000);
  const seen = await tab.title();
  await browser.close();
  return seen;
}

const end = (id: string) => h.api(`/v2/browser/${id}`, { method: 'DELETE' });
const profileRow = (name: string) => h.db.browserProfile.findUnique({ where: { teamId_name: { teamId: h.teamId, name } } });

describe('browser profiles', () => {
  it('carry a login into the next session; one writer, readers allowed and not saved; deletable', async () => {
    const first = await session({ name: 'login' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await visit(first.body.cdpUrl, '/login', /^logged in$/);
    await end(first.body.id);
    const saved = await profileRow('login');
    expect(saved?.sizeBytes).toBeGreaterThan(0);
    expect(saved?.writerSessionId).toBeNull();
    expect(saved?.lastSaveError).toBeNull();

    const writer = await session({ name: 'login' });
    expect(writer.status).toBe(200);
    expect(await visit(writer.body.cdpUrl, '/check', /^ls=/)).toBe('ls=ada idb=xyz');
    const cookie = String(site.headers.get('/check')?.cookie);
    expect(cookie).toContain('sid=abc');
    expect(cookie).toContain('remember=yes');

    const second = await session({ name: 'login', saveChanges: true });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe(
      'Another session is currently writing to this profile. Only one writer is allowed at a time. You can still access it with saveChanges: false, or try again later.',
    );
    const reader = await session({ name: 'login', saveChanges: false });
    expect(reader.status).toBe(200);
    await visit(reader.body.cdpUrl, '/login?user=eve', /^logged in$/);
    expect((await h.api('/v2/browser/profiles/login', { method: 'DELETE' })).status).toBe(409);
    await end(reader.body.id);
    await end(writer.body.id);

    // The reader's change was not saved; the writer's close saved what it had.
    const after = await session({ name: 'login', saveChanges: false });
    expect(await visit(after.body.cdpUrl, '/check', /^ls=/)).toBe('ls=ada idb=xyz');
    await end(after.body.id);

    // Another team's profile of the same name is another profile.
    const other = await h.newTeam();
    const foreign = await h.api('/v2/browser', { method: 'POST', key: other.apiKey, json: { ttl: 60, profile: { name: 'login' } } });
    const fresh = await foreign.json();
    expect(await visit(fresh.cdpUrl, '/check', /^ls=/)).toBe('ls=null idb=undefined');
    await h.api(`/v2/browser/${fresh.id}`, { method: 'DELETE', key: other.apiKey });

    const deleted = await h.api('/v2/browser/profiles/login', { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ success: true });
    expect(await profileRow('login')).toBeNull();
    const again = await h.api('/v2/browser/profiles/login', { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect((await again.json()).error).toBe('Profile not found.');
  }, 180_000);

  it('keeps the old state when a save is over the size cap, and says why', async () => {
    const settings = h.config.browserSessions;
    const cap = settings.profileMaxBytes;
    const first = await session({ name: 'capped' });
    await visit(first.body.cdpUrl, '/login', /^logged in$/);
    await end(first.body.id);
    const before = await profileRow('capped');
    expect(before?.sizeBytes).toBeGreaterThan(100);
    settings.profileMaxBytes = 100;
    try {
      const big = await session({ name: 'capped' });
      await visit(big.body.cdpUrl, '/login?user=zed', /^logged in$/);
      await end(big.body.id);
    } finally {
      settings.profileMaxBytes = cap;
    }
    const after = await profileRow('capped');
    expect(after?.lastSaveError).toMatch(/^the profile was not saved: the profile('s storage)? is .*over 100/);
    expect(after?.sizeBytes).toBe(before?.sizeBytes);
    expect(after?.writerSessionId).toBeNull();
  }, 120_000);
});
