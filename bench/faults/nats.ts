/**
 * The doorbell on NATS under faults (issue 38), on two gateways of their own whose doorbell is a
 * nats-server of the suite's own (never the machine's), each reaching it through a TCP relay of
 * its own:
 *
 * - nats-restart: the server killed and started again at once, RESTARTS times;
 * - nats-outage: the server down NATS_OUTAGE_MS (10 s) while writes go on;
 * - nats-cut: one gateway's connection cut and refused for NATS_CUT_MS while it writes.
 *
 * Writes go on through the whole fault; while the doorbell is deaf, waits are ended (their
 * agents report DONE) and /readyz must answer 503 with a reason naming NATS. Then every follower
 * must reach the head with no loss and no duplicate, every wait must be SATISFIED.
 */
import { NatsServer, Relay } from '../../test/support/nats.ts';
import { benchGateway, now, setting, summary, until } from '../support.ts';
import { report, untilReady, Waits, Writer } from './clients.ts';
import { type Outcome, settle, stage } from './outcome.ts';
import {
  DATABASE_URL,
  FOLLOWERS,
  type Gateway,
  RECOVERY_DEADLINE_MS,
  RESTARTS,
  say,
  sleep,
  WAITS,
} from './settings.ts';
import { Follower } from './streams.ts';

export const NATS_OUTAGE_MS = setting('NATS_OUTAGE_MS', 10_000, 10_000);
export const NATS_CUT_MS = setting('NATS_CUT_MS', 3000, 2000);

/** /readyz's reason while the doorbell is deaf; null once it answers 200 or after `ms`. */
async function deafReason(gateway: Gateway, ms: number): Promise<string | null> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const response = await fetch(gateway.url.replace(/\/graphql$/, '/readyz')).catch(() => null);
    if (response?.status === 503) {
      const body = (await response.json()) as { reason?: string };
      return body.reason ?? '';
    }
    await sleep(20);
  }
  return null;
}

type NatsFault = 'nats-restart' | 'nats-outage' | 'nats-cut';

async function natsFault(name: NatsFault): Promise<Outcome> {
  const nats = await NatsServer.start();
  const relays = await Promise.all([Relay.start(nats.port), Relay.start(nats.port)]);
  const urls = relays.map((r) => r.url);
  const pair: Gateway[] = await Promise.all(
    urls.map((url) =>
      benchGateway({
        env: { DATABASE_URL, SWITCHBOARD_DOORBELL: url, SWITCHBOARD_DOORBELL_PROBE_MS: '500' },
      }),
    ),
  );
  const [a, b] = pair as [Gateway, Gateway];
  const totals = { lost: 0, duplicated: 0, wrong: 0, revokedStillOpen: 0 };
  const resumeMs: number[] = [];
  const deafReasons: string[] = [];
  let notDeaf = 0;
  const runs = name === 'nats-restart' ? RESTARTS : 1;
  try {
    for (let run = 1; run <= runs; run++) {
      const goal = await stage(a, 2, WAITS);
      const writerAgents = goal.agentIds.slice(0, 2);
      const waitAgents = goal.agentIds.slice(2, 2 + WAITS);
      const head = goal.agentIds.length;
      const followers = Array.from({ length: FOLLOWERS }, (_, i) => ({
        follower: new Follower(
          [(i % 2 ? b : a).wsUrl],
          goal.steward as string,
          goal.goalId,
          String(head),
        ),
        start: head,
      }));
      // The waits follow on b; the writes and the DONE that ends them go through a.
      const waits = new Waits(b, goal, waitAgents);
      await waits.started();
      const writer = new Writer(goal, writerAgents, () => a, 20);
      await until(() => writer.acked.size > 0, 'the writer to write');
      say(`${name} ${run}/${runs}: the fault`);
      const deaf = name === 'nats-cut' ? [a] : [a, b];
      if (name === 'nats-cut') {
        relays[0]!.refusing = true;
        relays[0]!.cut();
      } else {
        await nats.stop();
      }
      for (const gateway of deaf) {
        const reason = await deafReason(gateway, 5000);
        if (reason?.startsWith('NATS nats://')) deafReasons.push(reason);
        else notDeaf++;
      }
      // While deaf: the waits' agents finish, through the deaf instance.
      await Promise.all(waitAgents.map((agentId) => report(goal, agentId, 'DONE', () => a)));
      if (name === 'nats-outage') await sleep(NATS_OUTAGE_MS);
      if (name === 'nats-cut') await sleep(NATS_CUT_MS);
      const before = Math.max(...followers.map((f) => f.follower.last));
      const backAt = now();
      if (name === 'nats-cut') relays[0]!.refusing = false;
      else await nats.start();
      for (const gateway of deaf) if (!(await untilReady(gateway))) totals.wrong++;
      await until(
        () => followers.every((f) => f.follower.last > before),
        'followers to move on',
        RECOVERY_DEADLINE_MS,
      ).catch(() => {});
      resumeMs.push(now() - backAt);
      const wrongWaits = await waits.wrong();
      await writer.stop();
      const counts = await settle(goal, followers, b, writer.acked);
      totals.lost += counts.lost;
      totals.duplicated += counts.duplicated;
      totals.wrong += counts.wrong + wrongWaits + writer.refused;
      say(
        `${name} ${run}/${runs}: ${counts.events} events, lost ${counts.lost}, duplicated ${counts.duplicated}, wrong ${counts.wrong + wrongWaits}`,
      );
    }
  } finally {
    await Promise.all(pair.map((g) => g.stop()));
    for (const relay of relays) await relay.close();
    await nats.stop();
  }
  return {
    name,
    runs,
    ...totals,
    wrong: totals.wrong + notDeaf,
    resumeMs: summary(resumeMs),
    details: {
      faultMs: name === 'nats-outage' ? NATS_OUTAGE_MS : name === 'nats-cut' ? NATS_CUT_MS : 0,
      instancesNotReportingDeaf: notDeaf,
      readyzReasons: [...new Set(deafReasons.map((r) => r.replace(/:\d+:/, ':<port>:')))],
      backToFollowersMovedOnMs: summary(resumeMs),
    },
  };
}

export const natsScenarios = {
  'nats-restart': () => natsFault('nats-restart'),
  'nats-outage': () => natsFault('nats-outage'),
  'nats-cut': () => natsFault('nats-cut'),
};
