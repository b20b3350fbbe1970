/**
 * `npm run bench:fleet`: the fleet of test/support/fleet.ts (a database host with its own
 * Postgres, two gateway hosts, three agent hosts with tmux, providers and stand-ins, each a
 * network namespace) under deliveries while it fails. Stand-ins are spread over the agent
 * hosts in six kinds — idle (at their prompt), busy (a long run), dormant (registered, never
 * started), dead (started, then exited), blocked (at an approval prompt) and drafting (text
 * typed at the prompt, not submitted) — and deliveries, sent from the operator host through
 * both gateways with a retry under the same idempotency key on any failure, go to them mixed.
 * A third of the way in one agent host is cut off for PARTITION_MS and healed; halfway the
 * second gateway host is killed (SIGKILL for everything in its namespace).
 *
 * Figures, per target kind and overall: the share of deliveries that reached a final typed
 * outcome within their timeout + 5 s; duplicates (an idempotency key that made two
 * deliveries); bytes typed into a draft or an approval prompt (the notice text found in those
 * panes); submit → activity observed p50/p99 for idle targets; presence change → every
 * subscriber p99 (the provider's observedAt to arrival, on a subscriber of each gateway and
 * one naming both), split at the commit of the change's row (presenceHopsMs). Root only. Sizes (the by default; BENCH_QUICK=1 the second figure):
 * FLEET_AGENTS (over all three agent hosts, 50 / 18), FLEET_DELIVERIES (10000 / 240, spread
 * over FLEET_SEND_MS, 300000 / 30000), FLEET_TIMEOUT_MS (10000 / 8000), FLEET_PARTITION_MS
 * (12000 / 10000).
 */

import { WebSocket } from 'ws';
import {
  DeliverDocument,
  DeliveriesDocument,
  DeliveryDocument,
  DirectoryDocument,
  presenceChanges,
} from '../src/client/index.ts';
import { type AgentHost, startFleet } from '../test/support/fleet.ts';
import { eventually, uid } from '../test/support/harness.ts';
import { figure, percentile, printReport, progress, setting } from './support.ts';

const KINDS = ['idle', 'busy', 'dormant', 'dead', 'blocked', 'drafting'] as const;
type Kind = (typeof KINDS)[number];
const AGENTS = setting('FLEET_AGENTS', 50, 18);
const DELIVERIES = setting('FLEET_DELIVERIES', 10_000, 240);
/** The deliveries are spread evenly over this long, so the faults fall among them. */
const SEND_MS = setting('FLEET_SEND_MS', 300_000, 30_000);
const TIMEOUT_MS = setting('FLEET_TIMEOUT_MS', 10_000, 8000);
const PARTITION_MS = setting('FLEET_PARTITION_MS', 12_000, 10_000);
const CONCURRENCY = 8;
const NOTICE = 'unread message';
const say = (message: string) => progress('fleet', message);

const fleet = await startFleet({ ttl: '3s', agentsPerHost: 0, log: say });
try {
  // ---- the agents, by kind, spread over the hosts
  const kindOf = new Map<string, Kind>();
  const paneOf = new Map<string, { host: AgentHost; pane: string }>();
  // Round-robin over the hosts, the kind moving on each round, so every host runs every kind.
  for (let i = 0; i < AGENTS; i++) {
    const host = fleet.agentHosts[i % fleet.agentHosts.length] as AgentHost;
    const kind = KINDS[Math.floor(i / fleet.agentHosts.length) % KINDS.length] as Kind;
    const agentId = `${host.name}-${kind}-${i}`;
    kindOf.set(agentId, kind);
    if (kind === 'dormant') {
      await fleet.ok(
        `mutation($input: RegisterAgentInput!) { registerAgent(input: $input) { __typename } }`,
        { input: { goalId: fleet.goalId, agentId, agentModel: 'm', hostSurface: 'cli' } },
      );
      continue;
    }
    const pane = await fleet.startAgent(
      host,
      agentId,
      kind === 'busy' ? { STANDIN_STEPS: '100000', STANDIN_STEP_MS: '500' } : {},
    );
    paneOf.set(agentId, { host, pane });
  }
  say(`${kindOf.size} agents started; bringing them to their states`);
  const keys = async (agentId: string, text: string, enter: boolean) => {
    const at = paneOf.get(agentId);
    if (!at) return;
    await at.host.tmux('send-keys', '-t', at.pane, '-l', text);
    if (enter) await at.host.tmux('send-keys', '-t', at.pane, 'Enter');
  };
  const presence = async (agentId: string) => {
    const { directory } = await fleet.admin.request(DirectoryDocument, { goalId: fleet.goalId });
    return directory.rows.find((row) => row.agentId === agentId)?.presence ?? null;
  };
  const until = (agentId: string, test: (p: any) => boolean, what: string) =>
    eventually(
      async () => (test(await presence(agentId)) ? true : undefined),
      `${agentId} ${what}`,
      30_000,
    );
  for (const [agentId, kind] of kindOf) {
    if (kind === 'busy') await keys(agentId, 'work', true);
    if (kind === 'dead') await keys(agentId, 'exit', true);
    if (kind === 'blocked') await keys(agentId, 'approve', true);
  }
  for (const [agentId, kind] of kindOf) {
    if (kind === 'idle') await until(agentId, (p) => p?.liveness === 'IDLE', 'IDLE');
    if (kind === 'busy') await until(agentId, (p) => p?.liveness === 'WORKING', 'WORKING');
    if (kind === 'dead') await until(agentId, (p) => p?.endedAt != null, 'ended');
    if (kind === 'blocked') await until(agentId, (p) => p?.liveness === 'BLOCKED', 'BLOCKED');
  }
  // A draft last: typed at an idle prompt, never submitted.
  for (const [agentId, kind] of kindOf)
    if (kind === 'drafting') await keys(agentId, 'half a thought', false);

  // ---- subscribers: one on each gateway, one naming both
  const controller = new AbortController();
  const SUBSCRIBERS = ['gw1', 'gw2', 'both'] as const;
  /** Each change as a subscriber got it: when it arrived, and when the provider observed it. */
  const arrivals: { subscriber: number; seq: string; at: number; observedAt: number }[] = [];
  const subscribers = [...fleet.gateways, fleet.url].map(async (url, subscriber) => {
    for await (const change of presenceChanges(
      { url, token: fleet.adminToken, webSocketImpl: WebSocket, signal: controller.signal },
      fleet.goalId,
    )) {
      const observedAt = change.presence?.observedAt;
      if (observedAt && change.presence?.liveness !== 'UNKNOWN')
        arrivals.push({
          subscriber,
          seq: String(change.seq),
          at: Date.now(),
          observedAt: Date.parse(observedAt),
        });
    }
  });
  for (const s of subscribers) s.catch(() => {});

  // ---- the deliveries, with the faults
  const targets = [...kindOf.keys()];
  const sent: { key: string; kind: Kind; to: string; id?: string; sentAt: number }[] = [];
  let next = 0;
  let failures = 0;
  const started = Date.now();
  const send = async () => {
    for (;;) {
      const i = next++;
      if (i >= DELIVERIES) return;
      const due = started + (i / DELIVERIES) * SEND_MS;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      const to = targets[i % targets.length] as string;
      const record = {
        key: uid('k'),
        kind: kindOf.get(to) as Kind,
        to,
        sentAt: Date.now(),
      } as (typeof sent)[number];
      sent.push(record);
      for (let attempt = 0; attempt < 20 && !record.id; attempt++) {
        try {
          const { deliver } = await fleet.admin.request(DeliverDocument, {
            input: {
              goalId: fleet.goalId,
              to,
              kind: 'REQUEST',
              subject: 'bench',
              body: `bench ${record.key}`,
              idempotencyKey: record.key,
              timeoutMs: TIMEOUT_MS,
            },
          });
          record.id =
            deliver.__typename === 'Delivery' ? deliver.id : `refused:${deliver.__typename}`;
        } catch {
          failures++;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    }
  };
  const faults = (async () => {
    await eventually(() => (next >= DELIVERIES / 3 ? true : undefined), 'a third sent', 600_000);
    say('agent host a3 cut off');
    await fleet.cut('a3');
    await new Promise((resolve) => setTimeout(resolve, PARTITION_MS));
    await fleet.heal('a3');
    say('agent host a3 healed');
    await eventually(() => (next >= DELIVERIES / 2 ? true : undefined), 'half sent', 600_000);
    say('gateway host gw2 killed');
    await fleet.kill('gw2');
  })();
  await Promise.all(Array.from({ length: CONCURRENCY }, send));
  await faults;
  say(`${sent.length} sent in ${Math.round((Date.now() - started) / 1000)} s; settling`);

  // ---- settling: each must be final within its timeout + 5 s
  const outcomes = new Map<
    string,
    { final: boolean; outcome: string; settledIn: number | null; activityMs: number | null }
  >();
  const settle = async (record: (typeof sent)[number]) => {
    if (!record.id || record.id.startsWith('refused:')) {
      outcomes.set(record.key, {
        final: Boolean(record.id),
        outcome: record.id ?? 'never accepted',
        settledIn: 0,
        activityMs: null,
      });
      return;
    }
    const deadline = record.sentAt + TIMEOUT_MS + 5000;
    for (;;) {
      const { delivery } = await fleet.admin
        .request(DeliveryDocument, { id: record.id })
        .catch(() => ({ delivery: null }));
      if (delivery?.__typename === 'Delivery' && delivery.outcomeChange.final) {
        const d = delivery;
        const settledAt = Date.parse(d.outcomeChange.recordedAt);
        const activity = d.history.find((h) => h.outcome === 'ACTIVITY_OBSERVED');
        outcomes.set(record.key, {
          final: settledAt <= deadline || Date.parse(d.outcomeChange.effectiveAt) <= deadline,
          outcome: d.outcome,
          settledIn: settledAt - Date.parse(d.submittedAt),
          activityMs: activity
            ? Date.parse(activity.effectiveAt) - Date.parse(d.submittedAt)
            : null,
        });
        return;
      }
      if (Date.now() > deadline + 30_000) {
        outcomes.set(record.key, {
          final: false,
          outcome: delivery?.__typename === 'Delivery' ? delivery.outcome : 'unread',
          settledIn: null,
          activityMs: null,
        });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  for (let i = 0; i < sent.length; i += 20) await Promise.all(sent.slice(i, i + 20).map(settle));
  controller.abort();

  // ---- where a presence change's time goes: the provider's observation → the commit of its
  // row (report, gateway, head lock, commit), then the commit → each subscriber (doorbell,
  // catch-up read, the socket). recorded_at is the row's clock_timestamp(), on the same
  // machine's clock as the providers and this process.
  const recordedAt = new Map<string, number>();
  for (const line of await fleet.sql(
    `select seq, (extract(epoch from recorded_at) * 1000)::bigint from presence_changes where goal_id = '${fleet.goalId}'`,
  )) {
    const [seq, at] = line.split('|');
    recordedAt.set(seq as string, Number(at));
  }
  const lags = arrivals.map((a) => a.at - a.observedAt);
  const hops = (rows: typeof arrivals) => {
    const committed = rows.filter((a) => recordedAt.has(a.seq));
    const observedToCommit = committed.map((a) => (recordedAt.get(a.seq) as number) - a.observedAt);
    const commitToSubscriber = committed.map((a) => a.at - (recordedAt.get(a.seq) as number));
    const total = rows.map((a) => a.at - a.observedAt);
    const summary = (values: number[]) => ({
      p50: percentile(values, 50),
      p99: percentile(values, 99),
      max: values.length ? Math.max(...values) : null,
    });
    return {
      n: rows.length,
      total: summary(total),
      observedToCommit: summary(observedToCommit),
      commitToSubscriber: summary(commitToSubscriber),
    };
  };
  const presenceHops = {
    all: hops(arrivals),
    ...Object.fromEntries(
      SUBSCRIBERS.map((name, i) => [name, hops(arrivals.filter((a) => a.subscriber === i))]),
    ),
  };

  // ---- duplicates: an idempotency key that made more than one delivery
  const byKey = new Map<string, Set<string>>();
  for (const agentId of targets) {
    let before: string | undefined;
    for (;;) {
      const { deliveries } = await fleet.admin.request(DeliveriesDocument, {
        goalId: fleet.goalId,
        agentId,
        direction: 'TO',
        limit: 100,
        ...(before ? { before } : {}),
      });
      for (const row of deliveries.rows) {
        const ids = byKey.get(row.idempotencyKey) ?? new Set();
        ids.add(row.id);
        byKey.set(row.idempotencyKey, ids);
      }
      if (!deliveries.hasOlder || !deliveries.olderCursor) break;
      before = deliveries.olderCursor;
    }
  }
  const duplicates = [...byKey.values()].filter((ids) => ids.size > 1).length;

  // ---- bytes typed into drafts and approval prompts
  let typedBytes = 0;
  for (const [agentId, kind] of kindOf) {
    if (kind !== 'drafting' && kind !== 'blocked') continue;
    const at = paneOf.get(agentId);
    if (!at) continue;
    const screen = await at.host
      .tmux('capture-pane', '-p', '-J', '-S', '-1000', '-t', at.pane)
      .catch(() => '');
    for (const line of screen.split('\n'))
      if (line.includes(NOTICE)) typedBytes += Buffer.byteLength(line);
  }

  // ---- figures
  const records = sent.map((r) => ({
    ...r,
    ...(outcomes.get(r.key) as NonNullable<ReturnType<typeof outcomes.get>>),
  }));
  const share = (rs: typeof records) =>
    rs.length ? (100 * rs.filter((r) => r.final).length) / rs.length : null;
  const perKind = Object.fromEntries(
    KINDS.map((kind) => {
      const rs = records.filter((r) => r.kind === kind);
      const counts: Record<string, number> = {};
      for (const r of rs) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
      return [kind, { deliveries: rs.length, settledTypedPercent: share(rs), outcomes: counts }];
    }),
  );
  const activity = records
    .filter((r) => r.kind === 'idle' && r.activityMs !== null)
    .map((r) => r.activityMs as number);
  const source = 'issue 37';
  printReport(
    'fleet',
    [
      figure('deliveries settled typed within timeout + 5 s', share(records), '%', {
        atLeast: 100,
        source,
      }),
      ...KINDS.map((kind) =>
        figure(
          `${kind}: settled typed within timeout + 5 s`,
          perKind[kind]?.settledTypedPercent ?? null,
          '%',
          { atLeast: 100, source },
        ),
      ),
      figure('duplicate deliveries', duplicates, 'deliveries', { atMost: 0, source }),
      figure('bytes typed into a draft or an approval prompt', typedBytes, 'bytes', {
        atMost: 0,
        source,
      }),
      figure(
        'idle: submit → activity observed p50',
        activity.length ? percentile(activity, 50) : null,
        'ms',
      ),
      figure(
        'idle: submit → activity observed p99',
        activity.length ? percentile(activity, 99) : null,
        'ms',
        { atMost: 3000, source },
      ),
      figure(
        'presence change → every subscriber p99',
        lags.length ? percentile(lags, 99) : null,
        'ms',
        { atMost: 1000, source },
      ),
    ],
    {
      sizes: {
        agents: kindOf.size,
        deliveries: sent.length,
        timeoutMs: TIMEOUT_MS,
        partitionMs: PARTITION_MS,
      },
      faults: ['agent host a3 cut off and healed at a third', 'gateway host gw2 killed at half'],
      perKind,
      sendFailuresRetried: failures,
      idleActivityMs: {
        n: activity.length,
        p50: percentile(activity, 50),
        p99: percentile(activity, 99),
      },
      presenceLagMs: { n: lags.length, p50: percentile(lags, 50), p99: percentile(lags, 99) },
      presenceHopsMs: presenceHops,
    },
  );
} finally {
  await fleet.teardown();
}
process.exit(0);
