import { defineConfig } from 'drizzle-kit';

// One migration set for both engines: PGlite and PostgreSQL run the same SQL.
export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/db/schema.ts',
    './src/db/instance-tables.ts',
    './src/db/rate-limit-tables.ts',
    './src/db/webhook-tables.ts',
    './src/db/sign-in-tables.ts',
    './src/db/request-log-tables.ts',
    './src/db/sso-tables.ts',
    './src/db/oauth-tables.ts',
  ],
  out: './drizzle',
});
