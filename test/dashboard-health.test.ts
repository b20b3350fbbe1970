import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import {
  DeliverDocument,
  DeliveryHealthDocument,
  MarkReadDocument,
  RecordSessionPushDocument,
} from '../src/client/generated/graphql.ts';
import { buildDashboard, launchChromium, openDashboard, screenshot } from './support/browser.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  createGoal,
  doorbellBus,
  driver,
  issueCredential,
  peerInNewGoal,
  registerAgent,
  registerProvider,
  startTestGateway,
  uid,
} from './support/harness.ts';
import { requires } from './support/requires.ts';

let browser: Browser;
const pages: Page[] = [];

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

it('refuses delivery health to a peer and tells an outsider steward it is a scope gap', async () => {
  const peer = await peerInNewGoal(t);
  const refused = await t.gql(DeliveryHealthDocument, { goalId: peer.goalId }, peer.token);
  expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  const other = await createGoal(t);
  const steward = await issueCredential(t, { kind: 'STEWARD', goalIds: [other] });
  const gap = await t.ok(DeliveryHealthDocument, { goalId: peer.goalId }, steward.token);
  expect(gap.deliveryHealth.scopeGap.reason).toBe('AUDIENCE_NOT_AUTHORIZED');
  expect(gap.deliveryHealth.unread).toEqual([]);
});

requires('chromium')(`dashboard, delivery health (${driver})`, () => {
  it('shows a stalled delivery, an unread message’s age, an offered one and a silent provider, each linked, then clears as each is resolved', async () => {
    const goalId = await createGoal(t);
    const gamma = await registerAgent(t, goalId, 'gamma');
    const delta = await registerAgent(t, goalId, 'delta');
    const { token: gammaToken } = await issueCredential(t, {
      kind: 'PEER',
      goalId,
      agentId: gamma,
    });
    const steady = await registerProvider(t, [goalId]);
    const TTL = 2000;
    const brief = await registerProvider(t, [goalId], { presenceTtlMs: TTL });
    await steady.report([{ goalId, agentId: gamma, liveness: 'IDLE' }]);
    await brief.report([{ goalId, agentId: delta, liveness: 'IDLE', providerSessionRef: 'w2:p1' }]);

    const page = await openDashboard(browser, t.url, t.adminToken, `/g/${goalId}`);
    pages.push(page);
    const health = page.getByTestId('health');
    const ok = health.getByTestId('health-ok');
    await ok.waitFor({ timeout: 30_000 });
    expect(await ok.textContent()).toContain('2 providers reporting');

    const delivered = await t.ok(DeliverDocument, {
      input: {
        goalId,
        to: gamma,
        kind: 'REQUEST',
        subject: 'check the invoice',
        body: 'the total looks off',
        idempotencyKey: uid('key'),
        activityWindowMs: 50,
        timeoutMs: 600_000,
      },
    });
    const deliveryId = delivered.deliver.id as string;
    await t.ok(RecordSessionPushDocument, { id: deliveryId }, gammaToken);

    const row = (kind: string) => health.locator(`[data-health="${kind}"]`);
    for (const kind of ['stalled', 'unread', 'offered', 'silent'])
      await row(kind)
        .first()
        .waitFor({ timeout: TTL + 30_000 });
    expect(await row('unread').textContent()).toMatch(
      /gamma has 1 unread; the oldest, “check the invoice”, was sent \d+ s ago/,
    );
    expect(await row('unread').locator('time').getAttribute('title')).toMatch(/\d/);
    expect(await row('offered').textContent()).toContain('offered to gamma');
    expect(await row('silent').textContent()).toContain(brief.providerId);
    await row('silent').getByRole('link', { name: delta }).waitFor();
    for (const kind of ['stalled', 'unread', 'offered'])
      expect(await row(kind).locator(`a[data-delivery="${deliveryId}"]`).count()).toBe(1);
    await screenshot(page, `delivery-health-${driver}`, 'dashboard-health');

    // Each resolved in turn, each row goes, without a reload.
    await steady.report([{ goalId, agentId: gamma, liveness: 'WORKING' }]);
    await row('stalled').waitFor({ state: 'detached', timeout: 30_000 });
    await t.ok(MarkReadDocument, { ids: [deliveryId] }, gammaToken);
    await row('unread').waitFor({ state: 'detached', timeout: 30_000 });
    await row('offered').waitFor({ state: 'detached', timeout: 30_000 });
    await brief.report([{ goalId, agentId: delta, liveness: 'IDLE', providerSessionRef: 'w2:p1' }]);
    await row('silent').waitFor({ state: 'detached', timeout: 30_000 });
    await ok.waitFor({ timeout: 30_000 });

    // The row's link opens the delivery behind it.
    await page.goto(`${new URL(t.url).origin}/#/g/${goalId}/delivery/${deliveryId}`);
    await page.getByTestId('timeline').locator('[data-outcome="ACTIVITY_OBSERVED"]').waitFor();
  });

  // Only a LISTEN connection can be made deaf from outside (test/events.test.ts does the same
  // to the doorbell alone): on PGlite the doorbell is in-process, and NATS has its own tests.
  it.runIf(driver === 'postgres' && doorbellBus === 'postgres')(
    'says the gateway’s doorbell is deaf, with why and since when, while it cannot listen; then clears',
    async () => {
      // A gateway of its own, probing 200 ms apart, so the others' doorbells are left alone.
      const gateway = await startTestGateway(database, {
        adminToken: `admin-${uid('deaf')}`,
        doorbellProbeMs: 200,
      });
      const doorbell = gateway.gateway.deps.doorbell;
      const killListener = () =>
        database.db.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity
              where application_name = ${doorbell.connectionName}`,
        );
      let deafening = true;
      let killing: Promise<void> = Promise.resolve();
      try {
        const goalId = await createGoal(gateway);
        const page = await openDashboard(browser, gateway.url, gateway.adminToken, `/g/${goalId}`);
        pages.push(page);
        const health = page.getByTestId('health');
        await health.getByTestId('health-ok').waitFor({ timeout: 30_000 });
        expect(await health.getByTestId('health-ok').textContent()).toContain(
          'the doorbell listening',
        );

        // Every listening connection it opens is ended at once, until the page has said so (a
        // new one may listen for the few ms before the next kill: the panel may read it then,
        // and says so at a later check).
        killing = (async () => {
          while (deafening) {
            await killListener();
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        })();
        const row = health.locator('[data-health="doorbell"]');
        await row.waitFor({ timeout: 30_000 });
        const text = (await row.textContent()) ?? '';
        expect(text).toContain('The gateway’s doorbell is deaf since');
        expect(text).toMatch(/LISTEN|listen|probe/);
        expect(text).toContain('catch up on a timer');
        expect(await row.locator('time').getAttribute('title')).toMatch(/\d/);
        await screenshot(page, `delivery-health-deaf-${driver}`, 'dashboard-health-deaf');

        // Let it listen: the row goes, without a reload, and all is well again.
        deafening = false;
        await killing;
        await row.waitFor({ state: 'detached', timeout: 30_000 });
        await health.getByTestId('health-ok').waitFor({ timeout: 30_000 });
        expect(doorbell.status().listening).toBe(true);
      } finally {
        deafening = false;
        await killing;
        await gateway.stop();
      }
    },
    // The panel checks every HEALTH_RECHECK_MS (5 s): deaf, then listening again, takes two.
    60_000,
  );

  it('is not shown to a peer, whose token cannot read it', async () => {
    const { goalId, token } = await peerInNewGoal(t);
    const page = await openDashboard(browser, t.url, token, `/g/${goalId}`);
    pages.push(page);
    await page.getByTestId('directory').waitFor();
    expect(await page.getByTestId('health').count()).toBe(0);
  });
});
