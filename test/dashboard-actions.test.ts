import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import {
  AcquireLeaseDocument,
  AttentionDocument,
  ClaimTodoDocument,
  CreateTodoDocument,
  OpenGateDocument,
  TodoPageDocument,
} from '../src/client/generated/graphql.ts';
import { buildDashboard, launchChromium, openDashboard, screenshot } from './support/browser.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  createGoal,
  driver,
  eventually,
  issueCredential,
  registerAgent,
  startTestGateway,
  type TestGateway,
  uid,
} from './support/harness.ts';
import { requires } from './support/requires.ts';

let browser: Browser;
const pages: Page[] = [];
const open = async (gateway: TestGateway, token: string, route: string) => {
  const page = await openDashboard(browser, gateway.url, token, route);
  pages.push(page);
  return page;
};

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

/**
 * Runs the action labelled `label` inside `scope`: checks the confirmation names `names`,
 * fills `fields`, confirms, and returns the outcome the page shows (data-outcome and text).
 */
async function act(
  page: Page,
  scope: Locator,
  label: string,
  names: string[],
  fields: Record<string, string> = {},
) {
  const results = page.getByTestId('action-result');
  if ((await results.count()) > 0) await results.getByRole('button', { name: 'Dismiss' }).click();
  await scope.getByRole('button', { name: label, exact: true }).click();
  const dialog = page.getByRole('alertdialog', { name: `Confirm: ${label}` });
  for (const [name, value] of Object.entries(fields)) {
    const field = dialog.locator(`[name="${name}"]`);
    if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
  const confirm = (await dialog.getByTestId('confirm-text').textContent()) ?? '';
  for (const name of names) expect(confirm).toContain(name);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await results.waitFor({ timeout: 10_000 });
  return {
    outcome: await results.getAttribute('data-outcome'),
    text: (await results.textContent()) ?? '',
  };
}

/** A goal whose agent alpha holds a claim gated by an open gate, with a PEER token for beta. */
async function gatedGoal(gateway: TestGateway) {
  const goalId = await createGoal(gateway);
  for (const id of ['alpha', 'beta']) await registerAgent(gateway, goalId, id);
  const todoId = (
    await gateway.ok(CreateTodoDocument, {
      input: {
        goalId,
        title: 'Publish the bilingual homepage',
        taskClass: 'ADVANCEMENT_TASK',
        requiredDecisionScopes: ['public_claim:action:bilingual_homepage'],
      },
    })
  ).createTodo.id as string;
  await gateway.ok(ClaimTodoDocument, { input: { goalId, todoId, agentId: 'alpha' } });
  const gateId = (
    await gateway.ok(OpenGateDocument, {
      input: {
        goalId,
        reason: 'may we publish?',
        kind: 'PUBLIC_CLAIM',
        granularity: 'ACTION',
        scopeKey: 'bilingual_homepage',
      },
    })
  ).openGate.id as string;
  const peer = await issueCredential(gateway, { kind: 'PEER', goalId, agentId: 'beta' });
  return { goalId, todoId, gateId, peer };
}

requires('chromium')(`dashboard, actions in place (${driver})`, () => {
  it('decides a gate: refused for a peer, granted for an admin, the typed result verbatim', async () => {
    const { goalId, gateId, peer } = await gatedGoal(t);
    const row = (page: Page) => page.locator('[data-reason="BLOCKED_ON_GATE"]');

    const asPeer = await open(t, peer.token, `/g/${goalId}`);
    await row(asPeer).waitFor();
    const refused = await act(asPeer, row(asPeer), 'Decide the gate', [gateId, 'may we publish?']);
    expect(refused.outcome).toBe('refused:FORBIDDEN');
    expect(refused.text).toContain('refused (FORBIDDEN)');
    await screenshot(asPeer, `action-refused-${driver}`);

    const asAdmin = await open(t, t.adminToken, `/g/${goalId}`);
    await row(asAdmin).waitFor();
    const granted = await act(
      asAdmin,
      row(asAdmin),
      'Decide the gate',
      ['granted', 'Publish the bilingual homepage'],
      { decision: 'GRANTED', note: 'approved by the owner' },
    );
    expect(granted.outcome).toBe('Gate');
    expect(granted.text).toContain('"state": "GRANTED"');
    expect(granted.text).toContain('"decisionNote": "approved by the owner"');
    // The rollup follows: the gate no longer blocks the claim.
    await row(asAdmin).waitFor({ state: 'detached', timeout: 10_000 });
    await screenshot(asAdmin, `action-gate-${driver}`, 'dashboard-action');
  });

  it('sends a message to an agent and retires it: an admin succeeds, a peer is refused retiring', async () => {
    const { goalId, peer } = await gatedGoal(t);
    const actions = (page: Page) => page.getByTestId('agent-actions');

    const asAdmin = await open(t, t.adminToken, `/g/${goalId}/agent/alpha`);
    const sent = await act(
      asAdmin,
      actions(asAdmin),
      'Send a message',
      ['request to alpha', 'the numbers'],
      { kind: 'REQUEST', subject: 'the numbers', body: 'please check the totals' },
    );
    expect(sent.outcome).toBe('Delivery');
    expect(sent.text).toContain('"subject": "the numbers"');
    // The delivery shows in the agent's deliveries.
    await asAdmin.getByTestId('deliveries').getByText('the numbers').waitFor({ timeout: 10_000 });

    const asPeer = await open(t, peer.token, `/g/${goalId}/agent/alpha`);
    const retireRefused = await act(asPeer, actions(asPeer), 'Retire this agent', ['alpha']);
    expect(retireRefused.outcome).toBe('refused:FORBIDDEN');

    const retired = await act(asAdmin, actions(asAdmin), 'Retire this agent', [
      'Retire alpha',
      goalId,
    ]);
    expect(retired.outcome).toBe('Agent');
    expect(retired.text).toMatch(/"retiredAt": "\d{4}-/);
  });

  it('takes back a stale claim: a peer not holding it is refused, an admin releases it', async () => {
    const gateway = await startTestGateway(database, {
      adminToken: `admin-${uid('stale')}`,
      staleClaimMs: 500,
    });
    try {
      const { goalId, todoId, peer } = await gatedGoal(gateway);
      await eventually(async () => {
        const { attention } = await gateway.ok(AttentionDocument, { goalId });
        return attention.rows.some((r: { reason: string }) => r.reason === 'STALE_CLAIM')
          ? true
          : undefined;
      }, 'the claim to read stale');
      const row = (page: Page) => page.locator('[data-reason="STALE_CLAIM"]');

      const asPeer = await open(gateway, peer.token, `/g/${goalId}`);
      await row(asPeer).waitFor();
      const refused = await act(asPeer, row(asPeer), 'Take back the claim', [
        'alpha',
        'Publish the bilingual homepage',
      ]);
      expect(refused.outcome).toBe('refused:FORBIDDEN');
      expect(refused.text).toContain('a PEER acts as its own agent');

      const asAdmin = await open(gateway, gateway.adminToken, `/g/${goalId}/todo/${todoId}`);
      const released = await act(
        asAdmin,
        asAdmin.getByTestId('todo-fields'),
        'Take back the claim',
        ['alpha', todoId],
      );
      expect(released.outcome).toBe('Todo');
      expect(released.text).toContain('"claim": null');
      // The page follows: nobody claims it now.
      await asAdmin
        .getByTestId('todo-fields')
        .getByRole('link', { name: 'alpha' })
        .waitFor({ state: 'detached', timeout: 10_000 });
    } finally {
      await gateway.stop();
    }
  });

  it('releases an expired lease: a peer not holding it is refused with StaleFence, an admin releases it', async () => {
    const { goalId, todoId, peer } = await gatedGoal(t);
    const lease = await t.ok(AcquireLeaseDocument, {
      input: { goalId, todoId, agentId: 'alpha', ttlMs: 300 },
    });
    const fence = lease.acquireLease.fence as string;
    await eventually(async () => {
      const { todoPage } = await t.ok(TodoPageDocument, { goalId, ids: [todoId] });
      return todoPage.rows[0]?.lease?.state === 'EXPIRED' ? true : undefined;
    }, 'the lease to expire');
    const fields = (page: Page) => page.getByTestId('todo-fields');

    const asPeer = await open(t, peer.token, `/g/${goalId}/todo/${todoId}`);
    await fields(asPeer).getByText('expired', { exact: false }).first().waitFor();
    // Its transitions say the lease's time to live in words, not milliseconds.
    const acquired = asPeer.locator('[data-testid="transitions"] [data-kind="ACQUIRE_LEASE"]');
    expect(await acquired.textContent()).toContain('ttl: 0.3 s');
    expect(await acquired.textContent()).not.toContain('ms');
    const refused = await act(asPeer, fields(asPeer), 'Release the expired lease', [
      'alpha',
      'Publish the bilingual homepage',
      `fence ${fence}`,
    ]);
    expect(refused.outcome).toBe('StaleFence');
    expect(refused.text).toContain('"__typename": "StaleFence"');
    expect(refused.text).toContain('"holder": "alpha"');
    await screenshot(asPeer, `action-lease-refused-${driver}`, 'dashboard-lease-refused');

    const asAdmin = await open(t, t.adminToken, `/g/${goalId}/todo/${todoId}`);
    const released = await act(asAdmin, fields(asAdmin), 'Release the expired lease', [
      'alpha',
      todoId,
    ]);
    expect(released.outcome).toBe('Lease');
    expect(released.text).toContain('"holder": null');
    expect(released.text).toContain('"state": "NONE"');
    // The page follows: no lease, so nothing to release; the claim stays.
    await fields(asAdmin)
      .getByRole('button', { name: 'Release the expired lease' })
      .waitFor({ state: 'detached', timeout: 10_000 });
    expect(await fields(asAdmin).getByRole('link', { name: 'alpha' }).count()).toBe(1);
  });

  it('decides a user gate todo: a peer is refused while another agent claims it, an admin marks one done and closes another', async () => {
    const { goalId, peer } = await gatedGoal(t);
    const userGate = async (title: string) => {
      const todoId = (
        await t.ok(CreateTodoDocument, { input: { goalId, title, taskClass: 'USER_GATE' } })
      ).createTodo.id as string;
      await t.ok(ClaimTodoDocument, { input: { goalId, todoId, agentId: 'alpha' } });
      return todoId;
    };
    const budget = await userGate('Approve the launch budget');
    const venue = await userGate('Choose the venue');
    const row = (page: Page, todoId: string) =>
      page.locator(`[data-reason="WAITING_ON_OWNER"]:has(a[data-todo="${todoId}"])`);

    // From the rollup, a peer that does not claim it.
    const asPeer = await open(t, peer.token, `/g/${goalId}`);
    await row(asPeer, budget).getByRole('button', { name: 'Decide this user gate' }).waitFor();
    const refused = await act(
      asPeer,
      row(asPeer, budget),
      'Decide this user gate',
      ['done', 'Approve the launch budget', 'decisions/budget.md'],
      { outcome: 'DONE', evidence: 'decisions/budget.md' },
    );
    expect(refused.outcome).toBe('ClaimedByOther');
    expect(refused.text).toContain('"owner": "alpha"');

    // From the todo page, an admin: done with its evidence.
    const asAdmin = await open(t, t.adminToken, `/g/${goalId}/todo/${budget}`);
    const fields = asAdmin.getByTestId('todo-fields');
    const done = await act(
      asAdmin,
      fields,
      'Decide this user gate',
      ['done', budget, 'decisions/budget.md'],
      { outcome: 'DONE', evidence: 'decisions/budget.md' },
    );
    expect(done.outcome).toBe('CompletedTodo');
    expect(done.text).toContain('"status": "DONE"');
    expect(done.text).toContain('"decisions/budget.md"');
    await fields
      .getByRole('button', { name: 'Decide this user gate' })
      .waitFor({ state: 'detached', timeout: 10_000 });
    await screenshot(asAdmin, `action-user-gate-${driver}`, 'dashboard-user-gate');

    // From the rollup, an admin: closed with no follow-up; its row leaves the rollup.
    const overview = await open(t, t.adminToken, `/g/${goalId}`);
    const closed = await act(
      overview,
      row(overview, venue),
      'Decide this user gate',
      ['Close', 'Choose the venue', 'the event moved online'],
      { outcome: 'CLOSED', reason: 'the event moved online' },
    );
    expect(closed.outcome).toBe('Todo');
    expect(closed.text).toContain('"status": "CLOSED_NO_FOLLOW_UP"');
    await row(overview, venue).waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('lists credentials with labels, kinds and last use, and revokes one; a peer cannot list them', async () => {
    const { goalId, peer } = await gatedGoal(t);
    const label = uid('ci-runner');
    const leaked = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId], label });
    await t.ok(AttentionDocument, { goalId }, leaked.token);
    const unused = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId] });

    const asPeer = await open(t, peer.token, `/g/${goalId}/credentials`);
    await asPeer.getByRole('alert').waitFor();
    expect(await asPeer.getByTestId('credentials').count()).toBe(0);

    const asAdmin = await open(t, t.adminToken, `/g/${goalId}/credentials`);
    const row = asAdmin.locator(`tr[data-credential="${leaked.id}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain(label);
    expect(await row.textContent()).toContain('steward');
    expect(await row.locator('time').first().textContent()).toMatch(/ago/);
    const unusedRow = asAdmin.locator(`tr[data-credential="${unused.id}"]`);
    expect(await unusedRow.textContent()).toContain('never');
    expect(await unusedRow.textContent()).toContain('no label');
    const revoked = await act(asAdmin, row, 'Revoke', [label, 'steward', leaked.id]);
    expect(revoked.text).toContain('"status": "REVOKED"');
    await row.locator('[data-status="REVOKED"]').waitFor({ timeout: 5000 });
    const refused = await t.gql(AttentionDocument, { goalId }, leaked.token);
    expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    await screenshot(asAdmin, `credentials-${driver}`, 'dashboard-credentials');
  });
});
