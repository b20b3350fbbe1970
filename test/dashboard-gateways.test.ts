/**
 * The dashboard as a client of several gateways of one deployment (issue 37): configured with
 * both, it moves to the other when the one it uses stops — its requests and its live streams,
 * each resumed from its cursor — and its link pill says which gateway it is on.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { buildDashboard, launchChromium, openDashboard } from './support/browser.ts';
import {
  createGoal,
  driver,
  openTestDatabase,
  registerAgent,
  registerProvider,
  startTestGateway,
  type TestGateway,
} from './support/harness.ts';
import { requires } from './support/requires.ts';

/** Records every text the link pill shows, so a `reconnecting` that lasts 100 ms is not missed. */
const RECORD_LINK = `
  window.__link = [];
  new MutationObserver(() => {
    const text = document.querySelector('[data-testid="link"]')?.textContent;
    if (text && window.__link[window.__link.length - 1] !== text) window.__link.push(text);
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

let browser: Browser;
let database: Database;
const pages: Page[] = [];
const gateways: TestGateway[] = [];

beforeAll(async () => {
  buildDashboard();
  browser = await launchChromium();
  database = await openTestDatabase();
});
afterEach(async () => {
  for (const page of pages.splice(0)) await page.close();
  for (const gateway of gateways.splice(0)) await gateway.stop().catch(() => {});
});
afterAll(async () => {
  await browser?.close();
  await database?.close();
});

const hostOf = (gateway: TestGateway) => new URL(gateway.url).host;

/**
 * Two gateways of one deployment (the same database and admin token): a serves the page, b is
 * another origin that lets a's pages in (CORS).
 */
async function twoGateways(): Promise<[TestGateway, TestGateway]> {
  const a = await startTestGateway(database);
  gateways.push(a);
  const b = await startTestGateway(database, {
    adminToken: a.adminToken,
    corsOrigins: [new URL(a.url).origin],
  });
  gateways.push(b);
  return [a, b];
}

requires('chromium')(`dashboard on several gateways (${driver})`, () => {
  it('the first gateway stops while the overview is open: reconnecting, then live on the second, and a presence change made meanwhile appears without a reload', async () => {
    const [a, b] = await twoGateways();
    const goalId = await createGoal(b);
    const agentId = await registerAgent(b, goalId);
    const provider = await registerProvider(b, [goalId]);

    const page = await openDashboard(
      browser,
      `${a.url},${b.url}`,
      a.adminToken,
      `/g/${goalId}`,
      undefined,
      RECORD_LINK,
    );
    pages.push(page);
    let navigations = 0;
    page.on('framenavigated', () => navigations++);
    const link = page.getByTestId('link');
    const row = page.locator(`tr[data-agent="${agentId}"]`);
    await row.locator('td[data-liveness="NONE"]').waitFor();
    await link.filter({ hasText: new RegExp(`^live on ${hostOf(a)}$`) }).waitFor();

    await a.stop();
    // Made while the page has lost its stream: it must come from the cursor on b.
    await provider.report([{ goalId, agentId, liveness: 'WORKING' }], b);

    await link
      .filter({ hasText: new RegExp(`^live on ${hostOf(b)}$`) })
      .waitFor({ timeout: 10_000 })
      .catch(async (error) => {
        throw new Error(`the pill showed ${JSON.stringify(await page.evaluate('window.__link'))}`, {
          cause: error,
        });
      });
    await row.locator('td[data-liveness="WORKING"]').waitFor({ timeout: 5000 });
    expect(await link.getAttribute('data-gateway')).toBe(hostOf(b));
    const seen = (await page.evaluate('window.__link')) as string[];
    const reconnecting = seen.findIndex((text) => text.startsWith('reconnecting'));
    expect(reconnecting, `the pill showed ${JSON.stringify(seen)}`).toBeGreaterThan(-1);
    expect(seen[reconnecting]).toContain(`on ${hostOf(a)}`);
    expect(seen.slice(reconnecting)).toContain(`live on ${hostOf(b)}`);
    expect(navigations).toBe(0);

    // Later changes keep coming, and requests go to b too (a is gone): another page loads.
    await provider.report([{ goalId, agentId, liveness: 'BLOCKED' }], b);
    await row.locator('td[data-liveness="BLOCKED"]').waitFor({ timeout: 5000 });
    const before = ((await page.evaluate('window.__link')) as string[]).length;
    await page.getByRole('link', { name: 'Work graph' }).click();
    await page.getByTestId('frontier').waitFor({ timeout: 10_000 });
    await link.filter({ hasText: new RegExp(`^live on ${hostOf(b)}$`) }).waitFor();
    // The new page's stream starts on b, where the others are, not on a to find it gone.
    const after = ((await page.evaluate('window.__link')) as string[]).slice(before);
    expect(after.filter((text) => text.startsWith('reconnecting'))).toEqual([]);
  });

  it('the connect form takes several gateways, keeps them for the tab, and refuses one that is not a URL', async () => {
    const [a, b] = await twoGateways();
    const goalId = await createGoal(b);
    const page = await openDashboard(browser, a.url, a.adminToken, '');
    pages.push(page);
    const gateway = page.getByLabel('Gateway');

    await gateway.fill(`${a.url}, not a url`);
    await page.getByLabel('Token').fill(b.adminToken);
    await page.getByRole('button', { name: 'Connect' }).click();
    expect(await gateway.evaluate((input: HTMLInputElement) => input.validationMessage)).toBe(
      'not a URL: not a url',
    );
    expect(await page.evaluate(() => sessionStorage.getItem('switchboard.url'))).toBe(a.url);

    await gateway.fill(` ${b.url} ,${a.url}`);
    await page.getByRole('button', { name: 'Connect' }).click();
    expect(await page.evaluate(() => sessionStorage.getItem('switchboard.url'))).toBe(
      `${b.url},${a.url}`,
    );
    await page.getByRole('link', { name: goalId }).click();
    await page
      .getByTestId('link')
      .filter({ hasText: new RegExp(`^live on ${hostOf(b)}$`) })
      .waitFor();
  });
});
