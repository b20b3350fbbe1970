/**
 * Headless Debian Chromium driven by playwright-core, for the dashboard's tests and benchmark.
 * Never downloads a browser: .ci/run installs the distribution's `chromium` when it is missing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = new URL('../../test-results/dashboard/', import.meta.url).pathname;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/** Builds dashboard/dist (what the gateway serves at `/`) with Vite. */
export function buildDashboard(): void {
  execFileSync(process.execPath, ['scripts/build-dashboard.mjs'], { stdio: 'inherit' });
}

/**
 * Opens the dashboard served by the gateway at `graphqlUrl` (the first, when it names several), signed in with `token` the way
 * the connect form leaves it (sessionStorage), at the hash route `route`.
 */
export async function openDashboard(
  browser: Browser,
  graphqlUrl: string,
  token: string,
  route = '',
  viewport = { width: 1280, height: 800 },
  initScript?: string,
): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (error) => console.error(`[dashboard] ${error.stack ?? error.message}`));
  await page.addInitScript(
    ([url, secret]) => {
      sessionStorage.setItem('switchboard.url', url as string);
      sessionStorage.setItem('switchboard.token', secret as string);
    },
    [graphqlUrl, token],
  );
  if (initScript) await page.addInitScript(initScript);
  // With several gateways (comma-separated) the first serves the page.
  await page.goto(`${new URL(graphqlUrl.split(',')[0] as string).origin}/#${route}`);
  return page;
}

/** Where `DOCS_SCREENSHOTS=1` writes the screenshots the docs show. */
export const DOCS = new URL('../../docs/', import.meta.url).pathname;

/**
 * A full-page screenshot into test-results/dashboard/; with `docs` and DOCS_SCREENSHOTS=1 in
 * the environment, also into docs/<docs>.png (how the docs' screenshots are refreshed).
 */
export async function screenshot(page: Page, name: string, docs?: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
  if (docs && process.env.DOCS_SCREENSHOTS === '1')
    await page.screenshot({ path: `${DOCS}${docs}.png`, fullPage: true });
}
