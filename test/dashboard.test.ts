import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveDashboard } from '../src/dashboard-assets.ts';
import { buildDashboard, launchChromium, openDashboard, screenshot } from './support/browser.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  createGoal,
  driver,
  issueCredential,
  peerInNewGoal,
  registerAgent,
  registerProvider,
  startTestGateway,
  uid,
} from './support/harness.ts';

let browser: Browser;
const pages: Page[] = [];
const open = async (token: string, route: string) => {
  const page = await openDashboard(browser, t.url, token, route);
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

async function createTodo(goalId: string, input: Record<string, unknown> = {}) {
  const data = await t.ok(
    `mutation($input: CreateTodoInput!) { createTodo(input: $input) { __typename ... on Todo { id } } }`,
    { input: { goalId, title: uid('work'), taskClass: 'ADVANCEMENT_TASK', ...input } },
  );
  return data.createTodo.id as string;
}

async function claim(goalId: string, todoId: string, agentId: string) {
  await t.ok(`mutation($input: TodoActionInput!) { claimTodo(input: $input) { __typename } }`, {
    input: { goalId, todoId, agentId },
  });
}

async function openGate(goalId: string, scopeKey: string) {
  const data = await t.ok(
    `mutation($input: OpenGateInput!) { openGate(input: $input) { __typename ... on Gate { id } } }`,
    { input: { goalId, reason: 'may we?', kind: 'PUBLIC_CLAIM', granularity: 'ACTION', scopeKey } },
  );
  return data.openGate.id as string;
}

/** alpha holds a gated claim, beta an ungated one, and a user action waits on a person. */
async function gatedGoal() {
  const goalId = await createGoal(t);
  for (const id of ['alpha', 'beta', 'gamma']) await registerAgent(t, goalId, id);
  const gated = await createTodo(goalId, {
    title: 'Publish the bilingual homepage',
    requiredDecisionScopes: ['public_claim:action:bilingual_homepage'],
  });
  const free = await createTodo(goalId, { title: 'Translate the copy', dependsOn: [] });
  const userAction = await createTodo(goalId, {
    title: 'Approve the budget',
    taskClass: 'USER_ACTION',
  });
  const followUp = await createTodo(goalId, { title: 'Announce it', dependsOn: [gated, free] });
  await claim(goalId, gated, 'alpha');
  await claim(goalId, free, 'beta');
  const gateId = await openGate(goalId, 'bilingual_homepage');
  return { goalId, gated, free, userAction, followUp, gateId };
}

describe(`dashboard (${driver})`, () => {
  it('is served at / and, after connecting in the page, renders the directory of a seeded goal', async () => {
    const home = await fetch(new URL('/', t.url));
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(await home.text())?.[1];
    const asset = await fetch(new URL(`/${script}`, t.url));
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(new URL('/assets/../../package.json', t.url))).status).toBe(404);

    const goalId = await createGoal(t);
    const agents = [await registerAgent(t, goalId), await registerAgent(t, goalId)];
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    pages.push(page);
    await page.goto(new URL('/', t.url).href);
    await page.getByLabel('Gateway').fill(t.url);
    await page.getByLabel('Token').fill(t.adminToken);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByLabel('Open goal').fill(goalId);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    for (const agentId of agents) await page.locator(`tr[data-agent="${agentId}"]`).waitFor();
    expect(await page.locator('tr[data-agent]').count()).toBe(2);
    await expect
      .poll(() => page.locator(`tr[data-agent="${agents[0]}"]`).textContent())
      .toContain('model-x');
    // The token is kept for the tab only: not in the URL, not in localStorage.
    expect(page.url()).not.toContain(t.adminToken);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(t.adminToken);
    await screenshot(page, `directory-${driver}`);
  });

  it('answers / with how to build the dashboard when dashboard/dist is missing', async () => {
    const server = createServer((req, res) => {
      void serveDashboard(req, res, '/nonexistent-dashboard-dist/').then((served) => {
        if (!served) res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const home = await fetch(`http://127.0.0.1:${port}/`);
      expect(home.status).toBe(503);
      expect(await home.text()).toContain('npm run build:dashboard');
      expect((await fetch(`http://127.0.0.1:${port}/assets/x.js`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/graphql`)).status).toBe(404);
    } finally {
      server.close();
    }
  });

  it('works against a remote gateway: another origin, its URL and token entered in the page', async () => {
    // The page is served by `t`: its origin is the one the remote gateway lets in.
    const remote = await startTestGateway(database, {
      adminToken: `admin-${uid('remote')}`,
      corsOrigins: [new URL(t.url).origin],
    });
    try {
      const goalId = await createGoal(remote);
      const agentId = await registerAgent(remote, goalId);
      const page = await open(t.adminToken, '');
      await page.getByLabel('Gateway').fill(remote.url);
      await page.getByLabel('Token').fill(remote.adminToken);
      await page.getByRole('button', { name: 'Connect' }).click();
      await page.getByRole('link', { name: goalId }).click();
      await page.locator(`tr[data-agent="${agentId}"]`).waitFor();
      await page
        .getByTestId('link')
        .filter({ hasText: /^live$/ })
        .waitFor();
      expect(new URL(page.url()).origin).not.toBe(new URL(remote.url).origin);
    } finally {
      await remote.stop();
    }
  });

  it('shows a presence report within 1 s, without a reload', async () => {
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const provider = await registerProvider(t, [goalId]);
    const page = await open(t.adminToken, `/g/${goalId}`);
    await page.locator(`tr[data-agent="${agentId}"] td[data-liveness="NONE"]`).waitFor();
    await page
      .getByTestId('link')
      .filter({ hasText: /^live$/ })
      .waitFor();
    await provider.report([{ goalId, agentId, liveness: 'WORKING' }]);
    const reported = performance.now();
    await page
      .locator(`tr[data-agent="${agentId}"] td[data-liveness="WORKING"]`)
      .waitFor({ timeout: 1000 });
    expect(performance.now() - reported).toBeLessThan(1000);
    await page
      .locator(`tr[data-agent="${agentId}"]`)
      .getByText(/observed \d+ s ago/)
      .waitFor();
    await provider.report([{ goalId, agentId, liveness: 'BLOCKED' }]);
    await page
      .locator(`tr[data-agent="${agentId}"] td[data-liveness="BLOCKED"]`)
      .waitFor({ timeout: 1000 });
  });

  it('lists a gated claim first in the attention rollup, linked to its agent and todo', async () => {
    const { goalId, gated, userAction } = await gatedGoal();
    const provider = await registerProvider(t, [goalId]);
    await provider.report([
      { goalId, agentId: 'alpha', liveness: 'WORKING', providerSessionRef: 'w1:p1' },
      { goalId, agentId: 'beta', liveness: 'BLOCKED', providerSessionRef: 'w1:p2' },
    ]);
    const page = await open(t.adminToken, `/g/${goalId}`);
    const rows = page.locator('[data-testid="attention"] > li');
    await rows.first().waitFor();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).getAttribute('data-reason')).toBe('BLOCKED_ON_GATE');
    expect(await rows.nth(1).getAttribute('data-reason')).toBe('WAITING_ON_OWNER');
    expect(await rows.nth(0).textContent()).toContain('Blocked on a gate');
    await rows.nth(1).getByRole('link', { name: userAction }).waitFor();
    // Presence annotates the gated claim; it does not rank it.
    expect(await rows.nth(0).locator('.annotation').textContent()).toContain('working');
    await screenshot(page, `attention-${driver}`);
    await rows.nth(0).getByRole('link', { name: gated }).click();
    await page.getByText('Publish the bilingual homepage').waitFor();
    expect(page.url()).toContain(`/todo/${gated}`);
  });

  it('links a stalled delivery from the rollup to its outcome timeline', async () => {
    const { goalId } = await gatedGoal();
    const provider = await registerProvider(t, [goalId]);
    await provider.report([{ goalId, agentId: 'gamma', liveness: 'IDLE' }]);
    const page = await open(t.adminToken, `/g/${goalId}`);
    await page.locator('[data-testid="attention"] > li').first().waitFor();
    await t.ok(`mutation($input: DeliverInput!) { deliver(input: $input) { __typename } }`, {
      input: {
        goalId,
        to: 'gamma',
        kind: 'REQUEST',
        subject: 'please review',
        body: 'the French variant is ready',
        idempotencyKey: uid('stall'),
        activityWindowMs: 50,
        timeoutMs: 60_000,
      },
    });
    // The page re-reads the rollup on presence changes only (the gateway has no goal-wide
    // stream of work or delivery changes), so the test reloads until the delivery has stalled.
    const stalled = page.locator('[data-reason="STALLED_DELIVERY"]');
    await expect
      .poll(async () => {
        await page.reload();
        await page.locator('[data-testid="attention"] > li').first().waitFor();
        return stalled.count();
      })
      .toBe(1);
    await stalled.locator('a[href*="/delivery/"]').click({ timeout: 5000 });
    const timeline = page.getByTestId('timeline');
    await timeline.locator('[data-outcome="STALLED"]').waitFor({ timeout: 5000 });
    expect(await timeline.locator('li').first().textContent()).toContain('submitted');
    await screenshot(page, `delivery-${driver}`);
  });

  it('says a scope gap is a scope gap, not an empty table', async () => {
    const { goalId } = await gatedGoal();
    const outsider = await peerInNewGoal(t);
    const page = await open(outsider.token, `/g/${goalId}`);
    const gap = page.locator('[data-scope-gap="AUDIENCE_NOT_AUTHORIZED"]');
    await gap.waitFor();
    expect(await gap.textContent()).toContain('Scope gap');
    expect(await page.locator('[data-testid="directory"]').count()).toBe(0);
    expect(await page.locator('[data-testid="attention"]').count()).toBe(0);
    await screenshot(page, `scope-gap-${driver}`);
  });

  it('pages the evidence ledger, with relevance and redaction markers', async () => {
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const { token } = await issueCredential(t, { kind: 'PEER', goalId, agentId });
    for (let i = 1; i <= 25; i++) {
      await t.ok(
        `mutation($input: RecordEventInput!) { recordEvent(input: $input) { __typename } }`,
        {
          input: {
            goalId,
            eventKind: 'TODO_UPDATE',
            summary:
              i === 25
                ? 'Reproduced with curl -H "Authorization: Bearer sk-abcdefghijklmnopqrstuvwx0123456789" today'
                : `step ${i} done`,
          },
        },
        token,
      );
    }
    const page = await open(t.adminToken, `/g/${goalId}/agent/${agentId}`);
    const rows = page.locator('[data-testid="ledger"] > li');
    await rows.first().waitFor();
    await expect.poll(() => rows.count()).toBe(20);
    expect(await rows.last().textContent()).toMatch(/redacted ×\d/);
    expect(await page.getByTestId('digest').textContent()).not.toBe('');
    await page.getByTestId('ledger-older').click();
    await page.getByTestId('ledger-end').waitFor();
    expect(await rows.count()).toBe(25);
    expect(await rows.first().textContent()).toContain('step 1 done');
    await screenshot(page, `ledger-${driver}`);
  });

  it('shows a peer its inbox, and another agent’s ledger as a scope gap', async () => {
    const { goalId, agentId, token } = await peerInNewGoal(t);
    const other = await registerAgent(t, goalId);
    const delivered = await t.ok(
      `mutation($input: DeliverInput!) { deliver(input: $input) { __typename } }`,
      {
        input: {
          goalId,
          to: agentId,
          kind: 'REQUEST',
          subject: 'please review the French copy',
          body: 'it is in the usual place',
          idempotencyKey: uid('key'),
        },
      },
    );
    expect(delivered.deliver.__typename).toBe('Delivery');
    const page = await open(token, `/g/${goalId}`);
    await page.getByRole('link', { name: 'Inbox' }).click();
    await page.getByText('please review the French copy').waitFor();
    await page.goto(`${new URL(t.url).origin}/#/g/${goalId}/agent/${other}`);
    await page.locator('[data-scope-gap="NOT_OWN_LEDGER"]').waitFor();
  });

  it('draws the todo graph with a node per todo and open gate; a node opens its todo', async () => {
    const { goalId, gated, free, userAction, followUp, gateId } = await gatedGoal();
    const page = await open(t.adminToken, `/g/${goalId}/work`);
    const graph = page.getByTestId('todo-graph');
    await graph.waitFor();
    for (const id of [gated, free, userAction, followUp, `gate:${gateId}`])
      await graph.locator(`[data-node="${id}"]`).waitFor();
    expect(await graph.locator('[data-node]').count()).toBe(5);
    expect(await graph.locator('path.edge').count()).toBe(3);
    expect(await page.getByTestId('frontier').textContent()).toContain('Announce it');
    await screenshot(page, `work-graph-${driver}`);
    await graph.locator(`[data-node="${followUp}"]`).click();
    await page.getByText(`Todo ${followUp}`).waitFor();
  });

  it('shows the connection state and recovers live updates after a gateway restart', async () => {
    // A gateway of its own, so stopping it does not disturb the other tests.
    const config = { adminToken: `admin-${uid('restart')}` };
    let gateway = await startTestGateway(database, config);
    const port = gateway.gateway.port;
    const goalId = await createGoal(gateway);
    const agentId = await registerAgent(gateway, goalId);
    const providerId = uid('provider');
    const { token } = await issueCredential(gateway, {
      kind: 'PROVIDER',
      providerId,
      goalIds: [goalId],
    });
    const page = await openDashboard(browser, gateway.url, gateway.adminToken, `/g/${goalId}`);
    pages.push(page);
    const link = page.getByTestId('link');
    await link.filter({ hasText: /^live$/ }).waitFor();
    await gateway.stop();
    await link.filter({ hasText: 'reconnecting' }).waitFor();
    gateway = await startTestGateway(database, { ...config, port });
    try {
      await link.filter({ hasText: /^live$/ }).waitFor({ timeout: 10_000 });
      await gateway.ok(
        `mutation($input: RegisterProviderInput!) { registerProvider(input: $input) { providerId } }`,
        {
          input: {
            providerId,
            instanceId: 'i-1',
            membershipProof: 'test',
            identifierRules: 'test',
            livenessMapping: [{ providerState: 'busy', liveness: 'WORKING' }],
            presenceTtlMs: 60_000,
            observationSources: [],
            supportsPinnedWaits: false,
            persistence: 'none',
          },
        },
        token,
      );
      await gateway.ok(
        `mutation($reports: [PresenceReportInput!]!) { reportPresence(reports: $reports) { __typename } }`,
        {
          reports: [
            {
              goalId,
              agentId,
              liveness: 'WORKING',
              providerSessionRef: 'w1:p1',
              occupantRef: 'pane-1/agent',
              observedAt: new Date().toISOString(),
              basis: 'PROVIDER_DETECTION',
              reportSeq: '1',
            },
          ],
        },
        token,
      );
      await page
        .locator(`tr[data-agent="${agentId}"] td[data-liveness="WORKING"]`)
        .waitFor({ timeout: 2000 });
    } finally {
      await gateway.stop();
    }
  });
});
