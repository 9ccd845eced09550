import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { withKey } from '../support/keys.ts';

// Elsewhere (SCREENSHOTS_DIR) when a person wants to look at them outside the repository.
export const SCREENSHOTS = process.env.SCREENSHOTS_DIR ?? 'test-results/backoffice';

/** Builds web/dist when its sources changed (a no-op when it is fresh), as `npm start` does. */
export function ensureWebBuilt(): void {
  const result = spawnSync('node', ['scripts/build-web-if-needed.mjs'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('building the back office failed');
  mkdirSync(SCREENSHOTS, { recursive: true });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** A browser context on the server's origin that may use the clipboard, and collects page errors. */
export async function openContext(browser: Browser, baseURL: string, viewport = DESKTOP) {
  const context: BrowserContext = await browser.newContext({ baseURL, viewport, reducedMotion: 'reduce' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const problems: string[] = [];
  // A CSP violation (an inline script, a foreign connection) shows up here.
  page.on('console', (message) => {
    // Failed loads are judged below by URL; 401/403 answers are part of the story.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() === 404 || response.status() >= 500) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { context, page, problems };
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** No serious or critical WCAG violations on what the page shows now. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const axe = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  // With a dialog open, the dialog is all a user can reach; the page behind it is scanned on its own.
  if (await page.getByRole('dialog').count()) axe.include('[role="dialog"]');
  const results = await axe.analyze();
  const bad = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  expect(bad, `axe on ${what}`).toEqual([]);
}

export async function shot(page: Page, name: string): Promise<void> {
  // A dialog is pinned to the viewport: a full-page capture would cut it off mid-page.
  const dialogOpen = (await page.getByRole('dialog').count()) > 0;
  // A record, not a check: a long page on a busy machine may take a while to capture.
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: !dialogOpen, timeout: 90_000 });
}

export async function whoami(
  baseURL: string,
  key: string,
): Promise<{ status: number; body: { code?: string; key?: { name: string } } }> {
  const request = withKey(key, `${baseURL}/api/v1/whoami`);
  const response = await fetch(request.url, { headers: request.headers });
  return { status: response.status, body: (await response.json()) as { code?: string; key?: { name: string } } };
}

/** Calls the back-office JSON API as the page's signed-in user (its cookie and CSRF token): setup without clicking. */
export async function backofficeApi(page: Page) {
  const session = await page.request.get('/backoffice/api/session');
  expect(session.status()).toBe(200);
  const { csrf_token: csrf } = (await session.json()) as { csrf_token: string };
  const call = async <T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> => {
    const response = await page.request.fetch(`/backoffice/api${path}`, {
      method,
      headers: { 'x-csrf-token': csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { data: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status(), body: (text ? JSON.parse(text) : undefined) as T };
  };
  return call;
}

/**
 * How a piece of text lies on the page: on how many lines, whether the box cuts it short, how a cut
 * shows ("ellipsis"), and the title that then holds the whole of it.
 */
export function textLayout(text: Locator) {
  return text.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    return {
      lines: tops.size,
      cut: element.scrollWidth > element.clientWidth,
      overflow: getComputedStyle(element).textOverflow,
      title: element.getAttribute('title'),
    };
  });
}

/** Whether the element lies wholly inside the viewport as the page stands (nothing scrolled to it). */
export async function inViewport(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return false;
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height;
}

/**
 * Chromium's virtual authenticator on this page: a platform authenticator that holds discoverable
 * credentials and verifies the user, answering every ceremony by itself.
 */
export async function useVirtualAuthenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return cdp;
}

/** An app that connects with OAuth (registered by RFC 7591), and its own page its redirect URI names. */
export type OAuthApp = {
  clientId: string;
  callback: string;
  /** The app's authorization request (PKCE S256, state `st-browser`): where it sends the browser, and its verifier. */
  authorization(): { url: string; verifier: string };
  /** Waits for the provider to send the browser back to the app's page; that URL (code or error, state, iss). */
  backAt(page: Page): Promise<URL>;
  /** Exchanges a code the app was sent back with at the token endpoint, as the app's back end does. */
  exchange(code: string, verifier: string): Promise<Response>;
  close(): Promise<void>;
};

/** Starts the app's page on a loopback port, as a native app runs, and registers the app at `serverUrl`. */
export async function connectingApp(serverUrl: string, name: string): Promise<OAuthApp> {
  const site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>App</title><p>Back at the app');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const callback = `http://127.0.0.1:${(site.address() as AddressInfo).port}/callback`;
  const registered = await fetch(`${serverUrl}/oauth/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [callback], client_name: name, token_endpoint_auth_method: 'none' }),
  });
  expect(registered.status).toBe(201);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  return {
    clientId,
    callback,
    authorization() {
      const verifier = randomBytes(32).toString('base64url');
      const query = new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: callback,
        state: 'st-browser',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      });
      return { url: `/oauth/auth?${query}`, verifier };
    },
    async backAt(page) {
      await page.waitForURL(`${callback}**`);
      return new URL(page.url());
    },
    exchange: (code, verifier) =>
      fetch(`${serverUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: clientId,
          code,
          redirect_uri: callback,
          code_verifier: verifier,
        }),
      }),
    close: () => new Promise((resolve) => site.close(() => resolve())),
  };
}
