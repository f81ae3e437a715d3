// Prisma CLI configuration. Prisma's native schema engine cannot be downloaded on
// our machines, so the CLI runs its bundled WASM engine through the pg driver
// adapter. Only `generate` and `migrate diff` are used (`migrate deploy` fails
// with the WASM engine); migrations are applied by src/platform/db/migrate.ts.
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  async adapter() {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error('DATABASE_URL must point at a running PostgreSQL for this Prisma command');
    return new PrismaPg({ connectionString });
  },
});
