import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import {
  ClaimTodoDocument,
  CreateTodoDocument,
  DeliverDocument,
  OpenGateDocument,
  RecordEventDocument,
  StartWaitDocument,
} from '../src/client/generated/graphql.ts';
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
  type TestGateway,
  uid,
} from './support/harness.ts';
import { providerProcess } from './support/provider-process.ts';
import { requires } from './support/requires.ts';

let browser: Browser;
const pages: Page[] = [];
const open = async (token: string, route: string) => {
  const page = await openDashboard(browser, t.url, token, route);
  pages.push(page);
  return page;
};

/**
 * A restart of the page's own gateway: once the page is live it is stopped, and while the
 * page says it is reconnecting `meanwhile` runs against another gateway of the same database;
 * then the gateway starts again on its port and, once the page is live again, `after` runs
 * against it. The gateway is stopped at the end.
 */
async function restartUnder(
  page: Page,
  gateway: TestGateway,
  config: { adminToken: string },
  meanwhile: (other: TestGateway) => Promise<unknown>,
  after: (restarted: TestGateway) => Promise<unknown>,
): Promise<void> {
  const port = gateway.gateway.port;
  const link = page.getByTestId('link');
  await link.filter({ hasText: /^live$/ }).waitFor();
  await gateway.stop();
  await link.filter({ hasText: 'reconnecting' }).waitFor();
  const other = await startTestGateway(database, config);
  try {
    await meanwhile(other);
  } finally {
    await other.stop();
  }
  const restarted = await startTestGateway(database, { ...config, port });
  try {
    await link.filter({ hasText: /^live$/ }).waitFor({ timeout: 10_000 });
    await after(restarted);
  } finally {
    await restarted.stop();
  }
}

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
  const data = await t.ok(CreateTodoDocument, {
    input: { goalId, title: uid('work'), taskClass: 'ADVANCEMENT_TASK', ...input },
  });
  return data.createTodo.id as string;
}

async function claim(goalId: string, todoId: string, agentId: string) {
  await t.ok(ClaimTodoDocument, {
    input: { goalId, todoId, agentId },
  });
}

async function openGate(goalId: string, scopeKey: string) {
  const data = await t.ok(OpenGateDocument, {
    input: { goalId, reason: 'may we?', kind: 'PUBLIC_CLAIM', granularity: 'ACTION', scopeKey },
  });
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

requires('chromium')(`dashboard (${driver})`, () => {
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

  it('a provider killed while the overview is open: its agent reads unknown with the reason, and the provider row appears at the top, without a reload', async () => {
    const TTL = 2000;
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const providerId = uid('provider');
    const { token } = await issueCredential(t, { kind: 'PROVIDER', providerId, goalIds: [goalId] });
    const provider = providerProcess({
      SWITCHBOARD_URL: t.url,
      SWITCHBOARD_TOKEN: token,
      PROVIDER_ID: providerId,
      GOAL_ID: goalId,
      AGENTS: agentId,
      PRESENCE_TTL_MS: String(TTL),
    });
    try {
      const page = await open(t.adminToken, `/g/${goalId}`);
      const row = page.locator(`tr[data-agent="${agentId}"]`);
      await row.locator('td[data-liveness="WORKING"]').waitFor({ timeout: 30_000 });
      await page
        .getByTestId('link')
        .filter({ hasText: /^live$/ })
        .waitFor();
      await page.getByText('Nothing needs a decision.').waitFor();
      let navigations = 0;
      page.on('framenavigated', () => navigations++);
      await provider.kill9();
      await row.locator('td[data-liveness="UNKNOWN"]').waitFor({ timeout: TTL + 3000 });
      expect(await row.locator('td.notes').textContent()).toContain(
        'unknown: no report inside the provider’s TTL',
      );
      const first = page.locator('[data-testid="attention"] > li').first();
      await first.waitFor({ timeout: 2000 });
      expect(await first.getAttribute('data-reason')).toBe('PROVIDER_SILENT');
      expect(await first.textContent()).toContain(
        `Provider stopped reporting ${providerId} (no report inside the provider’s TTL), covering ${agentId}`,
      );
      await first.getByRole('link', { name: agentId }).waitFor();
      expect(navigations).toBe(0);
      await screenshot(page, `provider-silent-${driver}`);
    } finally {
      await provider.kill9();
    }
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
    await page.getByTestId('health-ok').waitFor();
    await screenshot(page, `attention-${driver}`, 'dashboard');
    await rows.nth(0).getByRole('link', { name: gated }).click();
    // The overview names the todo twice (attention, directory): wait for the todo page's own title.
    await page.getByTestId('todo-fields').waitFor();
    expect(await page.locator('h2.page-title').textContent()).toContain(
      'Publish the bilingual homepage',
    );
    expect(page.url()).toContain(`/todo/${gated}`);
  });

  it('links a stalled delivery from the rollup to its outcome timeline', async () => {
    const { goalId } = await gatedGoal();
    const provider = await registerProvider(t, [goalId]);
    await provider.report([{ goalId, agentId: 'gamma', liveness: 'IDLE' }]);
    const page = await open(t.adminToken, `/g/${goalId}`);
    await page.locator('[data-testid="attention"] > li').first().waitFor();
    await t.ok(DeliverDocument, {
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
    await screenshot(page, `delivery-${driver}`, 'dashboard-delivery');
  });

  it('stays usable with many agents: sticky headings, liveness and text filters, keyboard', async () => {
    const goalId = await createGoal(t);
    const ids = Array.from({ length: 60 }, (_, i) => `agent-${String(i).padStart(2, '0')}`);
    for (const id of ids) await registerAgent(t, goalId, id);
    const provider = await registerProvider(t, [goalId]);
    await provider.report(
      ids.slice(0, 20).map((agentId, i) => ({
        goalId,
        agentId,
        liveness: i % 2 === 0 ? 'WORKING' : 'BLOCKED',
        providerSessionRef: `w1:p${i}`,
      })),
    );
    const page = await open(t.adminToken, `/g/${goalId}`);
    const rows = page.locator('[data-testid="directory"] tbody tr');
    await expect.poll(() => rows.count()).toBe(60);
    // Scrolled to the last row, the column headings are still in view, under the page header.
    await rows.last().scrollIntoViewIfNeeded();
    const header = await page.locator('header.top').boundingBox();
    const heading = await page.locator('[data-testid="directory"] thead th').first().boundingBox();
    expect(heading?.y).toBeGreaterThanOrEqual((header?.height ?? 0) - 1);
    expect(heading?.y).toBeLessThan((header?.height ?? 0) + 5);
    // The count per liveness is a filter (a toggle); so is the text box.
    const blocked = page.locator('[data-liveness-filter="BLOCKED"]');
    expect(await blocked.textContent()).toContain('10');
    await blocked.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.count()).toBe(10);
    expect(await blocked.getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.count()).toBe(60);
    await page.getByLabel('Filter agents').fill('agent-4');
    await expect.poll(() => rows.count()).toBe(10);
    expect(await page.getByTestId('directory-filtered').textContent()).toBe('showing 10 of 60');
    // A row's link opens the agent page from the keyboard.
    await page.locator('tr[data-agent="agent-42"] a').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Agent agent-42' }).waitFor();
    await screenshot(page, `many-agents-${driver}`);
  });

  it('pages a directory of 500 agents 100 at a time, sorts by a column and filters across pages', async () => {
    const goalId = await createGoal(t);
    const ids = Array.from({ length: 500 }, (_, i) => `agent-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < ids.length; i += 50)
      await Promise.all(ids.slice(i, i + 50).map((id) => registerAgent(t, goalId, id)));
    const provider = await registerProvider(t, [goalId]);
    await provider.report([
      { goalId, agentId: 'agent-377', liveness: 'BLOCKED', providerSessionRef: 'w1:p1' },
      { goalId, agentId: 'agent-001', liveness: 'WORKING', providerSessionRef: 'w1:p2' },
    ]);
    const page = await open(t.adminToken, `/g/${goalId}`);
    const rows = page.locator('[data-testid="directory"] tbody tr');
    await page.locator('tr[data-agent="agent-099"]').waitFor();
    expect(await rows.count()).toBe(100);
    const pager = page.getByTestId('directory-pager');
    expect(await pager.locator('output').textContent()).toBe('rows 1–100 of 500');
    await pager.getByRole('button', { name: 'Next' }).click();
    await page.locator('tr[data-agent="agent-100"]').waitFor();
    expect(await rows.count()).toBe(100);
    // Sorted by liveness, blocked comes first (from any page).
    await page.locator('[data-sort="liveness"]').click();
    await expect.poll(() => rows.first().getAttribute('data-agent')).toBe('agent-377');
    expect(await page.locator('th[aria-sort="ascending"]').textContent()).toContain('Liveness');
    await page.locator('[data-sort="agent"]').click();
    await page.locator('[data-sort="agent"]').click();
    await expect.poll(() => rows.first().getAttribute('data-agent')).toBe('agent-499');
    // The filter searches every page, not only the one shown.
    await page.getByLabel('Filter agents').fill('agent-37');
    await expect.poll(() => rows.count()).toBe(10);
    expect(await page.getByTestId('directory-pager').count()).toBe(0);
    await screenshot(page, `directory-500-${driver}`, 'dashboard-directory');
  });

  it('follows prefers-color-scheme, with text contrast of at least 4.5:1 in both', async () => {
    const { goalId } = await gatedGoal();
    const provider = await registerProvider(t, [goalId]);
    await provider.report([
      { goalId, agentId: 'alpha', liveness: 'WORKING', providerSessionRef: 'w1:p1' },
      { goalId, agentId: 'beta', liveness: 'BLOCKED', providerSessionRef: 'w1:p2' },
      { goalId, agentId: 'gamma', liveness: 'UNREACHABLE', providerSessionRef: 'w1:p3' },
    ]);
    const backgrounds: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await open(t.adminToken, `/g/${goalId}`);
      await page.emulateMedia({ colorScheme });
      await page.locator('tr[data-agent="gamma"] td[data-liveness="UNREACHABLE"]').waitFor();
      const ratios = await page.evaluate(() => {
        const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
        const lum = (css: string) => {
          const [r, g, b] = rgb(css).map((v) => {
            const c = v / 255;
            return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
        };
        const background = (el: Element | null): string => {
          for (let e = el; e; e = e.parentElement) {
            const bg = getComputedStyle(e).backgroundColor;
            if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return bg;
          }
          return getComputedStyle(document.body).backgroundColor;
        };
        const selectors = ['.pill', '.muted', 'a', '.link', 'th', '.badge', '.notes', 'strong'];
        const out: { selector: string; ratio: number }[] = [];
        for (const selector of selectors) {
          for (const el of [...document.querySelectorAll(selector)].slice(0, 20)) {
            const a = lum(getComputedStyle(el).color);
            const b = lum(background(el));
            out.push({ selector, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) });
          }
        }
        return { out, body: getComputedStyle(document.body).backgroundColor };
      });
      backgrounds.push(ratios.body);
      expect(ratios.out.length).toBeGreaterThan(20);
      for (const { selector, ratio } of ratios.out)
        expect(ratio, `${colorScheme} ${selector}`).toBeGreaterThanOrEqual(4.5);
      await screenshot(page, `overview-${colorScheme}-${driver}`);
    }
    expect(backgrounds[0]).toBe('rgb(255, 255, 255)');
    expect(backgrounds[1]).toBe('rgb(13, 17, 23)');
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
        RecordEventDocument,
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
    // A row recorded now arrives on the ledger stream, without a reload.
    await t.ok(
      RecordEventDocument,
      { input: { goalId, eventKind: 'TODO_UPDATE', summary: 'step 26 arrived live' } },
      token,
    );
    await rows.last().filter({ hasText: 'step 26 arrived live' }).waitFor({ timeout: 5000 });
    expect(await rows.count()).toBe(26);
    await screenshot(page, `ledger-${driver}`);
  });

  it('shows the waits pending on an agent and its deliveries with their timelines, live', async () => {
    const { goalId } = await gatedGoal();
    const provider = await registerProvider(t, [goalId]);
    await provider.report([
      { goalId, agentId: 'beta', liveness: 'IDLE', providerSessionRef: 'w1:p2' },
    ]);
    const deliver = (input: Record<string, unknown>) =>
      t.ok(DeliverDocument, {
        input: {
          goalId,
          kind: 'REQUEST',
          idempotencyKey: uid('key'),
          body: 'see the notes',
          ...input,
        },
      });
    const toBeta = (await deliver({ to: 'beta', subject: 'review the French copy' })).deliver.id;
    const toGamma = (
      await deliver({ to: 'gamma', subject: 'unrelated to beta', timeoutMs: 60_000 })
    ).deliver.id;
    const started = await t.ok(StartWaitDocument, {
      input: { goalId, agentId: 'beta', accept: ['WORKING'], timeoutMs: 60_000 },
    });
    expect(started.startWait.status).toBe('PENDING');
    const waitId = started.startWait.id as string;

    const page = await open(t.adminToken, `/g/${goalId}/agent/beta`);
    const wait = page.locator(`[data-testid="waits"] tr[data-wait="${waitId}"]`);
    await wait.waitFor();
    expect(await wait.textContent()).toContain('working');
    const delivery = page.locator(`[data-testid="deliveries"] tr[data-delivery="${toBeta}"]`);
    await delivery.waitFor();
    expect(await delivery.getAttribute('data-outcome')).toBe('SUBMITTED');
    expect(await delivery.textContent()).toContain('review the French copy');
    // Only beta's traffic: the steward's delivery to gamma is not beta's.
    expect(await page.locator(`tr[data-delivery="${toGamma}"]`).count()).toBe(0);
    await page
      .getByTestId('link')
      .filter({ hasText: /^live$/ })
      .waitFor();
    await screenshot(page, `agent-${driver}`, 'dashboard-agent');

    // beta starts working: the wait is satisfied and the delivery sees activity, without a reload.
    await provider.report([
      { goalId, agentId: 'beta', liveness: 'WORKING', providerSessionRef: 'w1:p2' },
    ]);
    await page
      .locator(`tr[data-delivery="${toBeta}"][data-outcome="ACTIVITY_OBSERVED"]`)
      .waitFor({ timeout: 5000 });
    await wait.waitFor({ state: 'detached', timeout: 5000 });
    const steps = delivery.locator('.timeline li');
    expect(await steps.first().textContent()).toContain('submitted');
    await delivery.locator('[data-outcome="ACTIVITY_OBSERVED"]').waitFor();
    await page.getByText('No pending waits on this agent.').waitFor();
    await delivery.getByRole('link', { name: 'review the French copy' }).click();
    await page.getByTestId('timeline').locator('[data-outcome="ACTIVITY_OBSERVED"]').waitFor();
  });

  it('shows an outsider the agent page as scope gaps, not empty tables', async () => {
    const { goalId } = await gatedGoal();
    const outsider = await peerInNewGoal(t);
    const page = await open(outsider.token, `/g/${goalId}/agent/beta`);
    for (const section of ['#waits-title', '#deliveries-title']) {
      const gap = page.locator(
        `section:has(${section}) [data-scope-gap="AUDIENCE_NOT_AUTHORIZED"]`,
      );
      await gap.waitFor();
      expect(await gap.textContent()).toContain('Scope gap');
    }
    expect(await page.locator('[data-testid="waits"]').count()).toBe(0);
    expect(await page.locator('[data-testid="deliveries"]').count()).toBe(0);
    expect(await page.getByText('No pending waits').count()).toBe(0);
    expect(await page.getByText('No deliveries').count()).toBe(0);
  });

  it('tells a peer looking at another agent that its deliveries list is partial', async () => {
    const { goalId, agentId, token } = await peerInNewGoal(t);
    const other = await registerAgent(t, goalId);
    await t.ok(DeliverDocument, {
      input: {
        goalId,
        to: other,
        kind: 'CONTEXT',
        subject: 'between the operator and the other agent',
        body: 'fyi',
        idempotencyKey: uid('key'),
      },
    });
    const page = await open(token, `/g/${goalId}/agent/${other}`);
    await page.locator('[data-limitation="ONLY_CALLERS_OWN_DELIVERIES"]').waitFor();
    await page.getByText('No deliveries to or from this agent.').waitFor();
    expect(agentId).not.toBe(other);
  });

  it('shows a peer its inbox, and another agent’s ledger as a scope gap', async () => {
    const { goalId, agentId, token } = await peerInNewGoal(t);
    const other = await registerAgent(t, goalId);
    const delivered = await t.ok(DeliverDocument, {
      input: {
        goalId,
        to: agentId,
        kind: 'REQUEST',
        subject: 'please review the French copy',
        body: 'it is in the usual place',
        idempotencyKey: uid('key'),
      },
    });
    expect(delivered.deliver.__typename).toBe('Delivery');
    const page = await open(token, `/g/${goalId}`);
    await page.getByRole('link', { name: 'Inbox' }).click();
    await page.getByText('please review the French copy').waitFor();
    await page.goto(`${new URL(t.url).origin}/#/g/${goalId}/agent/${other}`);
    await page.locator('[data-scope-gap="NOT_OWN_LEDGER"]').waitFor();
  });

  it('follows a route that changed while the page was starting', async () => {
    const goalId = await createGoal(t);
    await registerAgent(t, goalId, 'alpha');
    // After the first render, before the page's effects run: as a click or a test can do.
    const page = await openDashboard(
      browser,
      t.url,
      t.adminToken,
      '',
      undefined,
      `addEventListener('DOMContentLoaded', () => { location.hash = '#/g/${goalId}/work'; });`,
    );
    pages.push(page);
    await page.getByText('No todos yet.').waitFor({ timeout: 5000 });
    expect(page.url()).toContain(`/g/${goalId}/work`);
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
    await screenshot(page, `work-graph-${driver}`, 'dashboard-work');
    await graph.locator(`[data-node="${followUp}"]`).click();
    await page.getByText(`Todo ${followUp}`).waitFor();
  });

  it('reads only what the first screen shows: the work graph a page of 100 todos, the todo page its todo by id, titles only of the todos shown', async () => {
    const goalId = await createGoal(t);
    await registerAgent(t, goalId, 'alpha');
    const ids: string[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const numbers = Array.from({ length: 20 }, (_, i) => batch * 20 + i);
      const created = await t.ok(
        `mutation { ${numbers
          .map(
            (n) =>
              `t${n}: createTodo(input: { goalId: "${goalId}", title: "Step ${n}", taskClass: ADVANCEMENT_TASK, priority: ${200 - n} }) { ... on Todo { id } }`,
          )
          .join(' ')} }`,
      );
      for (const n of numbers) ids[n] = created[`t${n}`].id;
    }
    await claim(goalId, ids[3] as string, 'alpha');
    /** The GraphQL operations a page sends, with their variables. */
    const reads = (page: Page) => {
      const sent: { op: string; variables: Record<string, unknown> }[] = [];
      page.on('request', (request) => {
        const body = request.postData();
        if (!body || !request.url().endsWith('/graphql')) return;
        const { query, variables } = JSON.parse(body);
        sent.push({ op: /^\s*(?:query|mutation) (\w+)/.exec(query)?.[1] ?? '?', variables });
      });
      return sent;
    };
    const listings = (sent: { op: string }[]) =>
      sent.filter((read) => read.op === 'Todos' || read.op === 'TodoTitles');

    const work = await open(t.adminToken, '');
    const workReads = reads(work);
    await work.goto(`${new URL(t.url).origin}/#/g/${goalId}/work`);
    const graph = work.getByTestId('todo-graph');
    await graph.locator(`[data-node="${ids[0]}"]`).waitFor();
    expect(await graph.locator('[data-node]').count()).toBe(100);
    expect(await work.getByTestId('graph-pager').textContent()).toContain('Todos 1–100 of 120');
    await work.getByRole('button', { name: 'Next 100' }).click();
    await graph.locator(`[data-node="${ids[119]}"]`).waitFor();
    expect(await graph.locator('[data-node]').count()).toBe(20);
    expect(listings(workReads)).toEqual([]);

    // The todo the order puts last: read by its id, its dependency's title beside it.
    const last = ids[119] as string;
    await t.ok(
      `mutation { setDependencies(input: { goalId: "${goalId}", todoId: "${last}", dependsOn: ["${ids[3]}"] }) { __typename } }`,
    );
    const todo = await open(t.adminToken, '');
    const todoReads = reads(todo);
    await todo.goto(`${new URL(t.url).origin}/#/g/${goalId}/todo/${last}`);
    await todo.getByText(`Todo ${last}`).waitFor();
    await todo
      .getByTestId('todo-fields')
      .getByRole('link', { name: /Step 3/ })
      .waitFor();
    expect(listings(todoReads)).toEqual([]);
    expect(todoReads.filter((read) => read.op === 'TodoPage').map((r) => r.variables.ids)).toEqual([
      [last],
    ]);

    // The overview names the todos it shows (alpha's claim), not the goal's 120.
    const overview = await open(t.adminToken, '');
    const overviewReads = reads(overview);
    await overview.goto(`${new URL(t.url).origin}/#/g/${goalId}`);
    await overview
      .getByTestId('directory')
      .getByRole('link', { name: /Step 3/ })
      .waitFor();
    expect(listings(overviewReads)).toEqual([]);
    const named = overviewReads.filter((read) => read.op === 'TodoNames');
    expect(Math.max(...named.map((read) => (read.variables.ids as string[]).length))).toBe(1);
  });

  it('shows the connection state and, after a gateway restart, the changes it missed and later ones', async () => {
    // A gateway of its own, so stopping it does not disturb the other tests.
    const config = { adminToken: `admin-${uid('restart')}` };
    const gateway = await startTestGateway(database, config);
    const goalId = await createGoal(gateway);
    const agentId = await registerAgent(gateway, goalId);
    const provider = await registerProvider(gateway, [goalId], { supportsPinnedWaits: false });
    const livenessShown = (liveness: string) =>
      page
        .locator(`tr[data-agent="${agentId}"] td[data-liveness="${liveness}"]`)
        .waitFor({ timeout: 5000 });
    const page = await openDashboard(browser, gateway.url, gateway.adminToken, `/g/${goalId}`);
    pages.push(page);
    // While the page's gateway is down, the agent starts working (reported to another instance).
    await restartUnder(
      page,
      gateway,
      config,
      (other) => provider.report([{ goalId, agentId, liveness: 'WORKING' }], other),
      async (restarted) => {
        await livenessShown('WORKING');
        await provider.report([{ goalId, agentId, liveness: 'IDLE' }], restarted);
        await livenessShown('IDLE');
      },
    );
  });

  it("an agent's page shows a wait settled while its gateway was restarting, with no change seen before", async () => {
    const config = { adminToken: `admin-${uid('restart')}` };
    const gateway = await startTestGateway(database, config);
    const goalId = await createGoal(gateway);
    const agentId = await registerAgent(gateway, goalId);
    const provider = await registerProvider(gateway, [goalId]);
    await provider.report([{ goalId, agentId, liveness: 'WORKING', providerSessionRef: 'w1:p1' }]);
    const started = await gateway.ok(StartWaitDocument, {
      input: { goalId, agentId, accept: ['DONE'], timeoutMs: 60_000 },
    });
    const waitId = started.startWait.id as string;
    const page = await openDashboard(
      browser,
      gateway.url,
      gateway.adminToken,
      `/g/${goalId}/agent/${agentId}`,
    );
    pages.push(page);
    await page.locator(`[data-testid="waits"] tr[data-wait="${waitId}"]`).waitFor();
    // While the page's gateway is down the agent finishes (reported to another instance): the
    // page's stream had seen no change yet, so only a cursor from its first read finds this one.
    await restartUnder(
      page,
      gateway,
      config,
      (other) =>
        provider.report(
          [{ goalId, agentId, liveness: 'DONE', providerSessionRef: 'w1:p1' }],
          other,
        ),
      () => page.getByText('No pending waits on this agent.').waitFor({ timeout: 5000 }),
    );
  });
});
