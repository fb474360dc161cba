// Configuration for Prisma's CLI (`prisma generate`, and `prisma migrate deploy` where the
// native engine exists). The project's own migration runner is prisma/migrate.ts.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://127.0.0.1:5432/mboa' },
});
