import { parse, validate } from 'graphql';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHIQL_HINT, GRAPHIQL_TABS } from '../src/http/graphiql.ts';
import { schema } from '../src/schema.ts';
import { launchChromium, screenshot } from './support/browser.ts';
import { t } from './support/gateway-per-file.ts';
import { createGoal, driver, registerAgent, registerProvider } from './support/harness.ts';
import { requires } from './support/requires.ts';

let browser: Browser;

/** Opens GraphiQL with every request that does not go to the gateway itself refused. */
async function openGraphiQL() {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const gateway = new URL(t.url);
  const refused: string[] = [];
  const requests: Request[] = [];
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.host === gateway.host || url.protocol === 'blob:' || url.protocol === 'data:')
      return route.continue();
    refused.push(url.href);
    return route.abort('internetdisconnected');
  });
  page.on('request', (request) => requests.push(request));
  await page.goto(t.url);
  return { page, refused, requests };
}

/** Replaces the whole text of a Monaco editor by typing into it, as a person pasting would. */
async function replaceText(page: Page, editor: string, text: string) {
  await page.locator(`${editor} .monaco-editor`).first().click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
  await page.keyboard.press('Escape'); // closes the completion list the text may have opened
}

describe('GraphiQL examples', () => {
  it('every example tab is a valid operation of the schema, and starts with the hint', () => {
    for (const tab of GRAPHIQL_TABS) {
      expect(validate(schema, parse(tab.query)), tab.query).toEqual([]);
      expect(tab.query.startsWith(GRAPHIQL_HINT)).toBe(true);
    }
    expect(GRAPHIQL_TABS.map((tab) => /(query|subscription) (\w+)/.exec(tab.query)?.[2])).toEqual([
      'Directory',
      'WaitForAgent',
      'Ledger',
    ]);
  });
});

requires('chromium')(`GraphiQL in a browser with the network closed (${driver})`, () => {
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders from local assets with the example tabs and the hint, and runs a subscription to its first event', async () => {
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const provider = await registerProvider(t, [goalId]);
    await provider.report([{ goalId, agentId, liveness: 'WORKING' }]);

    const { page, refused, requests } = await openGraphiQL();
    try {
      await page.locator('.graphiql-container').first().waitFor({ timeout: 60_000 });
      for (const name of ['Directory', 'WaitForAgent', 'Ledger'])
        await page.locator('.graphiql-tab', { hasText: name }).waitFor();
      await page
        .locator('.graphiql-query-editor')
        .getByText('Paste a token into Headers', { exact: false })
        .waitFor();

      // Headers belong to a tab: open the example first, then paste the token, as a person would.
      // (A click, not a pointer press: the tabs are draggable.)
      await page.getByRole('button', { name: 'WaitForAgent' }).dispatchEvent('click');
      await page.getByRole('tab', { name: 'WaitForAgent', selected: true }).waitFor();
      await page.getByRole('button', { name: 'Headers' }).click();
      await replaceText(
        page,
        '.graphiql-editor-tool .graphiql-editor:not(.hidden)',
        JSON.stringify({ Authorization: `Bearer ${t.adminToken}` }),
      );
      // The example on this test's goal, on one line (the editor re-indents pasted lines).
      const example = GRAPHIQL_TABS[1].query
        .split('\n')
        .filter((line) => !line.startsWith('#'))
        .join(' ')
        .replace('goalId: "demo"', `goalId: ${JSON.stringify(goalId)}`)
        .replace('agentId: "builder"', `agentId: ${JSON.stringify(agentId)}`);
      await replaceText(page, '.graphiql-query-editor', example);
      // (Dispatched: the editor's completion list may cover the button.)
      await page.getByRole('button', { name: /^Execute/ }).dispatchEvent('click');
      await page.locator('.graphiql-response').getByText('PENDING').waitFor({ timeout: 20_000 });
      await screenshot(page, `graphiql-subscription-${driver}`);

      // The subscription went over SSE to the gateway, with the CSRF header Yoga requires.
      const sse = requests.find((request) =>
        (request.headers().accept ?? '').includes('text/event-stream'),
      );
      expect(sse?.headers()['x-graphql-yoga-csrf']).toBe('1');
      expect(new URL(sse?.url() ?? 'http://none').host).toBe(new URL(t.url).host);
      expect(refused).toEqual([]);
    } catch (error) {
      await screenshot(page, `graphiql-failed-${driver}`);
      throw error;
    } finally {
      await page.close();
    }
  }, 120_000);
});
