import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import {
  ClaimTodoDocument,
  CreateTodoDocument,
  DeliverDocument,
  OpenGateDocument,
  RevokeCredentialDocument,
} from '../src/client/generated/graphql.ts';
import { buildDashboard, launchChromium, openDashboard, screenshot } from './support/browser.ts';
import { t } from './support/gateway-per-file.ts';
import {
  createGoal,
  driver,
  issueCredential,
  peerInNewGoal,
  registerAgent,
  registerProvider,
  uid,
} from './support/harness.ts';
import { requires } from './support/requires.ts';

let browser: Browser;
const pages: Page[] = [];
/** Opens a page and counts its navigations: "without a reload" means the count stays 0. */
const open = async (token: string, route: string) => {
  const page = await openDashboard(browser, t.url, token, route);
  pages.push(page);
  const counted = { page, navigations: 0 };
  await live(page);
  page.on('framenavigated', () => counted.navigations++);
  return counted;
};
const live = (page: Page) =>
  page
    .getByTestId('link')
    .filter({ hasText: /^live$/ })
    .waitFor({ timeout: 10_000 });

beforeAll(async () => {
  buildDashboard();
  browser = await launchChromium();
});
afterEach(async () => {
  for (const page of pages.splice(0)) await page.close();
});
afterAll(async () => {
  await browser?.close();
});

async function createTodo(goalId: string, title: string, input: Record<string, unknown> = {}) {
  const data = await t.ok(CreateTodoDocument, {
    input: { goalId, title, taskClass: 'ADVANCEMENT_TASK', ...input },
  });
  return data.createTodo.id as string;
}

requires('chromium')(`dashboard, live on every page (${driver})`, () => {
  it('the work graph, a todo and the overview follow work changed by another client, without a reload', async () => {
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const todoId = await createTodo(goalId, 'Translate the landing page');

    const work = await open(t.adminToken, `/g/${goalId}/work`);
    const todo = await open(t.adminToken, `/g/${goalId}/todo/${todoId}`);
    const overview = await open(t.adminToken, `/g/${goalId}`);
    await todo.page.getByTestId('todo-fields').getByText('none').first().waitFor();

    await t.ok(ClaimTodoDocument, { input: { goalId, todoId, agentId } });
    const added = await createTodo(goalId, 'Review the translation');

    await work.page
      .getByTestId('frontier')
      .locator('tr', { hasText: 'Translate the landing page' })
      .getByText(agentId)
      .waitFor({ timeout: 5000 });
    await work.page
      .getByTestId('todo-graph')
      .locator(`[data-node="${added}"]`)
      .waitFor({ timeout: 5000 });
    await todo.page
      .getByTestId('todo-fields')
      .getByRole('link', { name: agentId })
      .waitFor({ timeout: 5000 });
    await todo.page.locator('[data-testid="transitions"] li[data-kind="CLAIM"]').waitFor();
    // The overview's directory row shows the claimed todo by its title, its id beside it.
    await overview.page
      .locator(`tr[data-agent="${agentId}"] a[data-todo="${todoId}"]`, {
        hasText: 'Translate the landing page',
      })
      .waitFor({ timeout: 5000 });
    for (const { page, navigations } of [work, todo, overview]) {
      expect(navigations).toBe(0);
      expect(await page.getByTestId('link').textContent()).toBe('live');
    }
    await screenshot(todo.page, `todo-${driver}`, 'dashboard-todo');
  });

  it('the agent page leads with liveness, its source, host, model and claimed todo, live', async () => {
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const todoId = await createTodo(goalId, 'Write the release notes');
    const provider = await registerProvider(t, [goalId], { host: 'build-box-7' });
    await provider.report([{ goalId, agentId, liveness: 'IDLE', explain: 'prompt is empty' }]);
    const { page, navigations } = await open(t.adminToken, `/g/${goalId}/agent/${agentId}`);
    const summary = page.getByTestId('agent-summary');
    await summary.locator('[data-liveness="IDLE"]').waitFor();
    const source = await summary.getByTestId('agent-source').textContent();
    expect(source).toContain('prompt is empty');
    expect(source).toContain(provider.providerId);
    // The machine its provider runs on, apart from its surface (cli).
    expect(await summary.getByTestId('agent-host').textContent()).toBe('build-box-7');
    expect(await summary.textContent()).toContain('model-x');
    expect(await summary.textContent()).toContain('cli');
    expect(await summary.getByTestId('agent-claim').textContent()).toBe('none');
    // The summary is the first thing under the title.
    expect(
      await page.evaluate(() =>
        document.querySelector('h2.page-title')?.nextElementSibling?.getAttribute('data-testid'),
      ),
    ).toBe('agent-summary');

    // Work first (the goal's ledger stream), then presence (the presence stream).
    await t.ok(ClaimTodoDocument, { input: { goalId, todoId, agentId } });
    await summary
      .getByTestId('agent-claim')
      .getByRole('link', { name: 'Write the release notes' })
      .waitFor({ timeout: 5000 });
    await provider.report([
      { goalId, agentId, liveness: 'WORKING', explain: 'spinner in the status line' },
    ]);
    await summary.locator('[data-liveness="WORKING"]').waitFor({ timeout: 5000 });
    await summary
      .getByTestId('agent-source')
      .getByText('spinner in the status line')
      .waitFor({ timeout: 5000 });
    expect(navigations).toBe(0);
    await screenshot(page, `agent-summary-${driver}`);
  });

  it("a peer's inbox shows a message delivered by another client, without a reload", async () => {
    const { goalId, agentId, token } = await peerInNewGoal(t);
    const { page, navigations } = await open(token, `/g/${goalId}/inbox`);
    await page.getByText('No messages.').waitFor();
    await t.ok(DeliverDocument, {
      input: {
        goalId,
        to: agentId,
        kind: 'REQUEST',
        subject: 'please check the numbers',
        body: 'in the quarterly sheet',
        idempotencyKey: uid('key'),
      },
    });
    await page.getByText('please check the numbers').waitFor({ timeout: 5000 });
    expect(await page.locator('.inbox li').first().textContent()).toContain('from the operator');
    expect(navigations).toBe(0);
  });

  it('writes titles beside ids, relative times with the exact time on hover, no raw null, {} or milliseconds; a provider’s declared limits once, on the provider', async () => {
    const goalId = await createGoal(t);
    for (const id of ['alpha', 'beta']) await registerAgent(t, goalId, id);
    const gated = await createTodo(goalId, 'Publish the bilingual homepage', {
      requiredDecisionScopes: ['public_claim:action:bilingual_homepage'],
    });
    await t.ok(ClaimTodoDocument, { input: { goalId, todoId: gated, agentId: 'alpha' } });
    const gate = await t.ok(OpenGateDocument, {
      input: {
        goalId,
        reason: 'may we publish?',
        kind: 'PUBLIC_CLAIM',
        granularity: 'ACTION',
        scopeKey: 'bilingual_homepage',
      },
    });
    const provider = await registerProvider(t, [goalId]);
    await provider.report([
      { goalId, agentId: 'alpha', liveness: 'WORKING', providerSessionRef: 'w1:p1' },
      { goalId, agentId: 'beta', liveness: 'IDLE', providerSessionRef: 'w1:p2' },
    ]);
    const delivered = await t.ok(DeliverDocument, {
      input: {
        goalId,
        to: 'beta',
        kind: 'REQUEST',
        subject: 'review it',
        body: 'please',
        idempotencyKey: uid('key'),
        activityWindowMs: 5000,
        timeoutMs: 120_000,
      },
    });

    const { page } = await open(t.adminToken, `/g/${goalId}`);
    const blocked = page.locator('[data-reason="BLOCKED_ON_GATE"]');
    await blocked.getByText('Publish the bilingual homepage').waitFor({ timeout: 5000 });
    await blocked.getByText('“may we publish?”').waitFor();
    expect(await blocked.locator(`[data-gate="${gate.openGate.id}"]`).textContent()).toContain(
      gate.openGate.id,
    );
    // Declared limits: once, on the provider; never in an agent's notes.
    const declared = page.locator(`[data-provider="${provider.providerId}"]`);
    await declared.waitFor();
    expect(await declared.textContent()).toContain('alternate screen not in scrollback');
    for (const notes of await page.locator('td.notes').allTextContents())
      expect(notes).not.toContain('alternate screen');
    await expectNoRawValues(page);

    await page.goto(`${new URL(t.url).origin}/#/g/${goalId}/todo/${gated}`);
    await page.locator('[data-testid="transitions"] li[data-kind="CLAIM"]').waitFor();
    await expectNoRawValues(page);

    await page.goto(`${new URL(t.url).origin}/#/g/${goalId}/delivery/${delivered.deliver.id}`);
    await page.getByTestId('timeline').waitFor();
    expect(await page.locator('main').textContent()).toContain(
      'Activity is awaited for 5 s after submission',
    );
    await expectNoRawValues(page);
  });

  it('says the page is down, and since when, when its stream is refused', async () => {
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const { token, id } = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId] });
    const { page } = await open(token, `/g/${goalId}/agent/${agentId}`);
    await t.ok(RevokeCredentialDocument, { id });
    const link = page.getByTestId('link');
    await link.filter({ hasText: /^down since \d/ }).waitFor({ timeout: 10_000 });
    expect(await link.getAttribute('class')).toContain('link-down');
  });
});

/**
 * No raw `null`, `{}`, `undefined` or ISO timestamps in the text of the main view, no
 * milliseconds; every time element carries its exact time on hover.
 */
async function expectNoRawValues(page: Page) {
  const text = (await page.locator('main').textContent()) ?? '';
  expect(text).not.toMatch(/\bnull\b|\{\}|\bundefined\b|\d{4}-\d\d-\d\dT\d\d:|\d ms\b/);
  for (const time of await page.locator('main time').all())
    expect(await time.getAttribute('title')).toMatch(/\d/);
}
