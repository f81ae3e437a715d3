// The Temporal Cloud example in docs/operations.md adds every search attribute
// the service sets, so an operator who copies it starts a worker that goes on.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SEARCH_ATTRIBUTES } from '../../../src/platform/temporal/search-attribute-keys.ts';

it('the tcld command in docs/operations.md names every search attribute', () => {
  const text = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
  const command = /tcld namespace search-attributes add [^`]*/.exec(text.slice(text.indexOf('```sh\ntcld namespace')))?.[0] ?? '';
  const named = [...command.matchAll(/--search-attribute (\w+)=/g)].map((m) => m[1]);
  expect(named.toSorted()).toEqual(SEARCH_ATTRIBUTES.map((a) => a.name).toSorted());
});
