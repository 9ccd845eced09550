import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { signedInAs } from '../support/actors.ts';
import type { Role } from '../../src/shared/roles.ts';
import { migratedDataDir } from '../support/databases.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { ensureWebBuilt, launchChromium, openContext, signIn } from './browser-kit.ts';
import { SYSTEM_ACTOR } from '../../src/shared/actor.ts';

export const ADMIN = { email: 'admin@demo-air.test', password: 'correct-horse-battery-staple' };
// The password rule refuses one containing the e-mail's name ("crew").
export const CREW = { email: 'crew@demo-air.test', password: 'galley-trolley-stowed-21' };
export const DAY_MS = 24 * 60 * 60 * 1000;

// Live bindings: one server and one admin page per file, set by the hooks useBackOffice()
// registers; within a file each test continues the last.
export let server: RunningServer;
export let browser: Browser;
export let page: Page;
export let problems: string[];
export const clock = new ManualClock(new Date());

export const row = (name: string) => page.locator('tr', { has: page.getByText(name, { exact: true }) });

export type BackOfficeOptions = {
  /** The admin page starts signed in, on the key list. */
  signedIn?: boolean;
  /** Settings over the defaults (a fresh data directory, no demo tenant, ADMIN bootstrapped). */
  config?: Partial<Config>;
  /** The server reads `clock`, which tests move by hand (the default), or the real time. */
  clock?: 'manual' | 'real';
  /**
   * The host name the browser uses: passkeys need a name (an IP address is no relying party),
   * so their tests open the back office at `localhost`.
   */
  host?: '127.0.0.1' | 'localhost';
};

/** Starts the server and Chromium for the file's tests, stopped after them. */
export function useBackOffice({
  signedIn = false,
  config: extra = {},
  clock: time = 'manual',
  host = '127.0.0.1',
}: BackOfficeOptions = {}): void {
  beforeAll(async () => {
    ensureWebBuilt();
    const config = {
      ...loadConfig({}),
      port: 0,
      dataDir: migratedDataDir(),
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      demo: false,
      ...extra,
    };
    server = await startServer(config, time === 'manual' ? { overrides: { clock } } : {});
    browser = await launchChromium();
    ({ page, problems } = await openContext(browser, server.url.replace('127.0.0.1', host)));
    if (signedIn) {
      await page.goto('/backoffice/login?next=%2Fbackoffice%2Fsettings%2Fapi-keys');
      await signIn(page, ADMIN.email, ADMIN.password);
      await page.waitForURL('**/backoffice/settings/api-keys');
    }
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
}

/** The admin as the services take an acting user: for setting the scene without the UI. */
export async function adminActor() {
  return signedInAs(await server.services.accounts.users.requireByEmail(ADMIN.email));
}

/** Adds a user to the admin's tenant without the UI. */
export async function addUser(user: { email: string; password: string }, roles: Role[]): Promise<void> {
  const { tenantId } = await server.services.accounts.users.requireByEmail(ADMIN.email);
  await server.services.accounts.users.create(SYSTEM_ACTOR, tenantId, {
    email: user.email,
    name: 'Casey Crew',
    password: user.password,
    roles,
  });
}
