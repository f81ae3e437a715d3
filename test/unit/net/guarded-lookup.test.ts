import { describe, expect, it } from 'vitest';
import { BlockedAddressError } from '../../../src/platform/net/address-policy.ts';
import { checkHostAllowed, type Resolver } from '../../../src/platform/net/guarded-lookup.ts';

const noDns: Resolver = (hostname, _options, callback) => callback(Object.assign(new Error(`no DNS for ${hostname}`), { code: 'ENOTFOUND' }), []);

describe('guarded lookup', () => {
  it('resolves names under .localhost to the loopback without DNS, as browsers do', async () => {
    const addresses = await checkHostAllowed('sub.localhost', { allowPrivate: true, allowlist: [] }, noDns);
    expect(addresses.map((a) => a.address)).toEqual(['127.0.0.1', '::1']);
  });

  it('judges them as loopback addresses: refused while the guard is on', async () => {
    await expect(checkHostAllowed('app.localhost', { allowPrivate: false, allowlist: [] }, noDns)).rejects.toBeInstanceOf(BlockedAddressError);
  });
});
