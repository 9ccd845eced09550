/**
 * What a person waits for on the key page: from the start of navigation to the first frame that
 * shows a row of the 1,000-key list, in headless Chromium signed in as the bench's administrator.
 * Timed inside the page (performance.now() against the navigation's start), so the driver's own
 * polling adds nothing; two loads warm the server and the browser's cache, then the median of the rest.
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { AirkeyReady } from './airkey-server.ts';
import { median } from './measure.ts';
import { atMost, missingRow, type Row } from './rows.ts';
import type { Settings } from './scenario.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WARM_UP = 2;
const LOADS = 9;
const TARGET_MS = 1000;

export async function firstRowsRow(engine: string, airkey: AirkeyReady, keys: number, s: Settings): Promise<Row> {
  const what = `5. back office (${engine}): first rows of ${keys} keys shown in Chromium, ms`;
  if (!existsSync(CHROMIUM)) return missingRow(what, `not measured: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ baseURL: airkey.url, viewport: { width: 1280, height: 900 } });
    // The session cookie lands in the context, as a sign-in on the page would leave it.
    const signIn = await context.request.post('/backoffice/api/session', {
      data: { email: airkey.email, password: airkey.password },
    });
    if (!signIn.ok()) return missingRow(what, `not measured: sign-in answered ${signIn.status()}`);
    const page = await context.newPage();
    // Any failed answer behind the page (the list, the usage, the policy) makes the row missed.
    let bad = 0;
    page.on('response', (response) => void (response.status() >= 400 && bad++));
    const times: number[] = [];
    for (let load = 0; load < WARM_UP + LOADS; load++) {
      const response = await page.goto('/backoffice/settings/api-keys', { waitUntil: 'commit' });
      if (response?.status() !== 200) return missingRow(what, `not measured: the page answered ${response?.status()}`);
      const shownAt = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const check = () =>
              document.querySelector('table[aria-label="API keys"] tbody tr')
                ? resolve(performance.now())
                : requestAnimationFrame(check);
            check();
          }),
      );
      if (load >= WARM_UP) times.push(shownAt);
    }
    const ms = median(times);
    s.log(`    first rows in Chromium: median ${ms.toFixed(0)} ms of ${times.map((t) => t.toFixed(0)).join(', ')}`);
    return {
      what,
      value: ms.toFixed(0),
      reference: `${TARGET_MS} ms`,
      ratio: (ms / TARGET_MS).toFixed(2),
      measured: { value: ms, ratio: ms / TARGET_MS },
      target: atMost(TARGET_MS, 'value', ' ms'),
      bad,
    };
  } finally {
    await browser.close();
  }
}
