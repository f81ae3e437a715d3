// Each migration folder keeps the schema it was made from (scripts/new-migration.ts diffs the
// next migration against the newest one's copy). A schema changed without its migration, or a
// copy left behind by a merge, makes the next `npm run migration:new` write SQL for changes
// already applied: the newest copy must be the schema itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { MIGRATIONS_DIR, readMigrations } from '../../../src/platform/db/migrate.ts';

it('the newest migration was made from prisma/schema.prisma as it is', () => {
  const newest = readMigrations().at(-1)!;
  const copy = readFileSync(join(MIGRATIONS_DIR, newest.name, 'schema.prisma'), 'utf8');
  expect(copy, `${newest.name}/schema.prisma differs from prisma/schema.prisma: npm run migration:new -- <name>`).toBe(
    readFileSync('prisma/schema.prisma', 'utf8'),
  );
});
