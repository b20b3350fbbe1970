/**
 * The scenarios, each run against the suite's gateways and answering its outcome:
 * listen-kill, restart and outage (one function, the outage holds the cluster down), kill-9
 * and writers here; subscriptions, large-answers and wrong-tokens in abuse.ts.
 */
import postgres from 'postgres';
import { now, summary, until } from '../support.ts';
import { largeAnswers, subscriptions, wrongTokens } from './abuse.ts';
import { report, revocable, untilReady, untilReadyAfter, Waits, Writer } from './clients.ts';
import { clusterAsync, gateways } from './cluster.ts';
import { natsScenarios } from './nats.ts';
import { type Outcome, settle, stage } from './outcome.ts';
import {
  BURST_MS,
  DATABASE_URL,
  FOLLOWERS,
  type Gateway,
  KILL_EVERY_MS,
  OUTAGE_MS,
  RECOVERY_DEADLINE_MS,
  RESTARTS,
  RUNS,
  type ScenarioName,
  say,
  sleep,
  WAITS,
  WRITE_MS,
  WRITERS,
} from './settings.ts';
import { Follower } from './streams.ts';

/** (a) Bursts of kills of every doorbell connection; each instance must listen again. */
async function listenKill([a, b]: Gateway[]): Promise<Outcome> {
  const admin = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  const totals = { lost: 0, duplicated: 0, wrong: 0, revokedStillOpen: 0 };
  const relistenMs: number[] = [];
  const resumeMs: number[] = [];
  const waitMs: number[] = [];
  const revokeCloseMs: number[] = [];
  let notListening = 0;
  let kills = 0;
  const wrongBy = { streams: 0, waits: 0, refusedWrites: 0 };
  try {
    for (let run = 1; run <= RUNS; run++) {
      const goal = await stage(a!, 3, WAITS);
      const writerAgents = goal.agentIds.slice(0, 2);
      const resumeAgent = goal.agentIds[2] as string;
      const waitAgents = goal.agentIds.slice(3, 3 + WAITS);
      const head = goal.agentIds.length;
      const followers = Array.from({ length: FOLLOWERS }, (_, i) => {
        const g = i % 2 ? b! : a!;
        return {
          follower: new Follower([g.wsUrl], goal.steward as string, goal.goalId, String(head)),
          start: head,
        };
      });
      const waits = new Waits(a!, goal, waitAgents);
      await waits.started();
      const revoked = await revocable(a!, goal, goal.agentIds[0] as string, [a!, b!]);
      const writer = new Writer(goal, writerAgents, () => (run % 2 ? a! : b!), 50);
      // The burst: terminate every doorbell connection of the cluster every few ms.
      const burstEnd = Date.now() + BURST_MS;
      let revokedMidBurst = false;
      while (Date.now() < burstEnd) {
        const killed = await admin`select pg_terminate_backend(pid) from pg_stat_activity
          where application_name like 'switchboard-doorbell-%' and pid <> pg_backend_pid()`;
        kills += killed.length;
        if (!revokedMidBurst && Date.now() > burstEnd - BURST_MS / 2) {
          revokedMidBurst = true;
          void revoked.revoke(() => a!);
        }
        await sleep(KILL_EVERY_MS);
      }
      const after = now();
      for (const g of [a!, b!]) {
        if (await untilReady(g)) relistenMs.push(now() - after);
        else notListening++;
      }
      // Streams resume: a change written now reaches every follower.
      const before = Math.max(...followers.map((f) => f.follower.last));
      const writtenAt = now();
      if (await report(goal, resumeAgent, 'DONE', () => a!))
        writer.acked.set(resumeAgent, ['DONE']);
      await until(
        () => followers.every((f) => f.follower.last > before),
        'followers to resume',
        RECOVERY_DEADLINE_MS,
      ).catch(() => {});
      resumeMs.push(now() - writtenAt);
      await writer.stop();
      const doneAt = now();
      for (const agentId of waitAgents) await report(goal, agentId, 'DONE', () => b!);
      const wrongWaits = await waits.wrong();
      waitMs.push(...[...waits.outcomes.values()].map((o) => o.at - doneAt));
      const counts = await settle(goal, followers, a!, writer.acked);
      const { open, closeMs } = await revoked.stillOpen();
      revokeCloseMs.push(...closeMs);
      totals.lost += counts.lost;
      totals.duplicated += counts.duplicated;
      totals.wrong += counts.wrong + wrongWaits + writer.refused;
      totals.revokedStillOpen += open;
      wrongBy.streams += counts.wrong;
      wrongBy.waits += wrongWaits;
      wrongBy.refusedWrites += writer.refused;
      say(
        `listen-kill run ${run}/${RUNS}: listening again after ${Math.round(relistenMs.at(-1) ?? -1)} ms, lost ${counts.lost}, revoked open ${open}`,
      );
    }
  } finally {
    await admin.end({ timeout: 1 });
  }
  return {
    name: 'listen-kill',
    runs: RUNS,
    ...totals,
    wrong: totals.wrong + notListening,
    resumeMs: summary(resumeMs),
    details: {
      burstMs: BURST_MS,
      killEveryMs: KILL_EVERY_MS,
      connectionsTerminated: kills,
      instancesNotListeningAfterBurst: notListening,
      wrongBy,
      burstEndToReadyMs: summary(relistenMs),
      changeAfterBurstToEveryFollowerMs: summary(resumeMs),
      doneToWaitSatisfiedMs: summary(waitMs),
      revocationToSocketClosedMs: summary(revokeCloseMs),
    },
  };
}

/**
 * (b) The cluster stopped, held down `downMs`, and started: from writes accepted again to
 * streams and waits.
 */
async function restart(
  [a, b]: Gateway[],
  name: 'restart' | 'outage',
  downMs: number,
): Promise<Outcome> {
  const totals = { lost: 0, duplicated: 0, wrong: 0, revokedStillOpen: 0 };
  const writesBackMs: number[] = [];
  const resumeMs: number[] = [];
  const waitMs: number[] = [];
  const readyMs: number[] = [];
  const revokeCloseMs: number[] = [];
  for (let run = 1; run <= RESTARTS; run++) {
    const goal = await stage(a!, 2, WAITS);
    const writerAgents = goal.agentIds.slice(0, 2);
    const waitAgents = goal.agentIds.slice(2, 2 + WAITS);
    const head = goal.agentIds.length;
    const followers = Array.from({ length: FOLLOWERS }, (_, i) => {
      const g = i % 2 ? b! : a!;
      return {
        follower: new Follower([g.wsUrl], goal.steward as string, goal.goalId, String(head)),
        start: head,
      };
    });
    const waits = new Waits(a!, goal, waitAgents);
    await waits.started();
    const revoked = await revocable(a!, goal, goal.agentIds[0] as string, [a!, b!]);
    let lastAck = 0;
    const writer = new Writer(
      goal,
      writerAgents,
      () => a!,
      50,
      (at) => {
        lastAck = at;
      },
    );
    await until(() => lastAck > 0, 'the writer to write');
    say(`${name} ${run}/${RESTARTS}: stopping the cluster`);
    const stoppedAt = now();
    await clusterAsync('stop', '-m', 'fast');
    // Whatever was committed before the stop has arrived by now (the database is down).
    const before = Math.max(...followers.map((f) => f.follower.last));
    // Watch for the first write the database accepts again, from a connection of our own.
    let writesBackAt = 0;
    const watcher = (async () => {
      for (;;) {
        const probe = postgres(DATABASE_URL, { max: 1, onnotice: () => {}, connect_timeout: 1 });
        try {
          await probe`create temporary table faults_probe (n int)`;
          await probe`insert into faults_probe values (1)`;
          writesBackAt = now();
          return;
        } catch {
          await sleep(5);
        } finally {
          await probe.end({ timeout: 0 });
        }
      }
    })();
    // Streams resume: the writer's first change after the restart reaches every follower.
    // Stamped as it arrives, and /readyz polled, while pg_ctlcluster is still starting: it
    // returns about 2 s after Postgres accepts connections, and timing from its return would
    // count those 2 s as the gateway's.
    const resumed = new Map<Follower, number>();
    const resuming = until(
      () => {
        for (const { follower } of followers)
          if (!resumed.has(follower) && follower.last > before) resumed.set(follower, now());
        return resumed.size === followers.length;
      },
      'followers to resume',
      RECOVERY_DEADLINE_MS,
    ).catch(() => {});
    const readiness = untilReadyAfter(a!, () => writesBackAt);
    await sleep(downMs);
    const started = clusterAsync('start');
    await watcher;
    writesBackMs.push(writesBackAt - stoppedAt);
    await resuming;
    resumeMs.push(Math.max(...[...resumed.values()].map((at) => at - writesBackAt)));
    const readyAt = await readiness;
    readyMs.push(readyAt - writesBackAt);
    await Promise.all(waitAgents.map((agentId) => report(goal, agentId, 'DONE', () => b!)));
    const wrongWaits = await waits.wrong();
    waitMs.push(Math.max(...[...waits.outcomes.values()].map((o) => o.at - writesBackAt)));
    await started;
    await revoked.revoke(() => a!);
    await writer.stop();
    const counts = await settle(goal, followers, a!, writer.acked);
    const { open, closeMs } = await revoked.stillOpen();
    revokeCloseMs.push(...closeMs);
    totals.lost += counts.lost + (followers.length - resumed.size);
    totals.duplicated += counts.duplicated;
    totals.wrong += counts.wrong + wrongWaits + writer.refused;
    totals.revokedStillOpen += open;
    say(
      `${name} ${run}/${RESTARTS}: writes back after ${Math.round(writesBackMs.at(-1)!)} ms, streams resumed ${Math.round(resumeMs.at(-1)!)} ms later`,
    );
  }
  return {
    name,
    runs: RESTARTS,
    ...totals,
    resumeMs: summary(resumeMs),
    details: {
      stopToWritesAcceptedMs: summary(writesBackMs),
      writesAcceptedToStreamsResumedMs: summary(resumeMs),
      writesAcceptedToWaitsResolvedMs: summary(waitMs),
      writesAcceptedToReadyzMs: summary(readyMs),
      revocationToSocketClosedMs: summary(revokeCloseMs),
    },
  };
}

/** (c) kill -9 of one of two instances: its clients resume on the other from their cursors. */
async function kill9([a, b]: Gateway[]): Promise<Outcome> {
  const goal = await stage(b!, 2, WAITS);
  const writerAgents = goal.agentIds.slice(0, 2);
  const waitAgents = goal.agentIds.slice(2, 2 + WAITS);
  const head = goal.agentIds.length;
  const followers = Array.from({ length: FOLLOWERS }, () => ({
    follower: new Follower([a!.wsUrl, b!.wsUrl], goal.steward as string, goal.goalId, String(head)),
    start: head,
  }));
  const waits = new Waits(a!, goal, waitAgents);
  await waits.started();
  const revoked = await revocable(b!, goal, goal.agentIds[0] as string, [a!, b!]);
  const writer = new Writer(goal, writerAgents, () => b!, 50);
  await sleep(500);
  say('kill-9: killing one instance');
  const before = Math.max(...followers.map((f) => f.follower.last));
  gateways.splice(gateways.indexOf(a!), 1);
  const killedAt = now();
  a!.kill('SIGKILL');
  await a!.exited();
  revoked.forget(a!);
  for (const { follower } of followers) follower.only([b!.wsUrl]);
  waits.only([b!.wsUrl]);
  const resumed = new Map<Follower, number>();
  await until(
    () => {
      for (const { follower } of followers)
        if (!resumed.has(follower) && follower.last > before) resumed.set(follower, now());
      return resumed.size === followers.length;
    },
    'followers to resume on the other instance',
    RECOVERY_DEADLINE_MS,
  ).catch(() => {});
  const resumeMs = [...resumed.values()].map((at) => at - killedAt);
  const doneAt = now();
  await Promise.all(waitAgents.map((agentId) => report(goal, agentId, 'DONE', () => b!)));
  const wrongWaits = await waits.wrong();
  const waitMs = [...waits.outcomes.values()].map((o) => o.at - doneAt);
  await revoked.revoke(() => b!);
  await writer.stop();
  const counts = await settle(goal, followers, b!, writer.acked);
  const { open, closeMs } = await revoked.stillOpen();
  return {
    name: 'kill-9',
    runs: 1,
    lost: counts.lost + (followers.length - resumed.size),
    duplicated: counts.duplicated,
    wrong: counts.wrong + wrongWaits + writer.refused,
    revokedStillOpen: open,
    resumeMs: summary(resumeMs),
    details: {
      followers: FOLLOWERS,
      resubscriptions: followers.reduce((n, f) => n + f.follower.resubscriptions, 0),
      killToEveryFollowerResumedMs: summary(resumeMs),
      doneToWaitSatisfiedMs: summary(waitMs),
      revocationToSocketClosedMs: summary(closeMs),
      events: counts.events,
    },
  };
}

/** (d) WRITERS concurrent writers through both instances while streams follow. */
async function writers([a, b]: Gateway[]): Promise<Outcome> {
  const perWriter = 3;
  const goal = await stage(a!, WRITERS * perWriter, WAITS);
  const waitAgents = goal.agentIds.slice(WRITERS * perWriter, WRITERS * perWriter + WAITS);
  const head = goal.agentIds.length;
  const followers = Array.from({ length: FOLLOWERS }, (_, i) => {
    const g = i % 2 ? b! : a!;
    return {
      follower: new Follower([g.wsUrl], goal.steward as string, goal.goalId, String(head)),
      start: head,
    };
  });
  const waits = new Waits(b!, goal, waitAgents);
  await waits.started();
  const revoked = await revocable(a!, goal, goal.agentIds[0] as string, [a!, b!]);
  say(`writers: ${WRITERS} writers for ${WRITE_MS} ms`);
  const started = now();
  const all = Array.from(
    { length: WRITERS },
    (_, w) =>
      new Writer(
        goal,
        goal.agentIds.slice(w * perWriter, (w + 1) * perWriter),
        () => (w % 2 ? b! : a!),
        0,
      ),
  );
  await sleep(WRITE_MS / 2);
  await revoked.revoke(() => a!);
  const doneAt = now();
  await Promise.all(waitAgents.map((agentId) => report(goal, agentId, 'DONE', () => a!)));
  await sleep(WRITE_MS / 2);
  await Promise.all(all.map((w) => w.stop()));
  const seconds = (now() - started) / 1000;
  const wrongWaits = await waits.wrong();
  const waitMs = [...waits.outcomes.values()].map((o) => o.at - doneAt);
  const acked = new Map<string, string[]>();
  for (const w of all) for (const [agentId, list] of w.acked) acked.set(agentId, list);
  const writes = [...acked.values()].reduce((n, l) => n + l.length, 0);
  const counts = await settle(goal, followers, a!, acked);
  const { open, closeMs } = await revoked.stillOpen();
  return {
    name: 'writers',
    runs: 1,
    lost: counts.lost,
    duplicated: counts.duplicated,
    wrong: counts.wrong + wrongWaits + all.reduce((n, w) => n + w.refused, 0),
    revokedStillOpen: open,
    resumeMs: null,
    details: {
      writers: WRITERS,
      writes,
      writesPerSecond: Math.round(writes / seconds),
      followers: FOLLOWERS,
      events: counts.events,
      doneToWaitSatisfiedMs: summary(waitMs),
      revocationToSocketClosedMs: summary(closeMs),
    },
  };
}

/** Each scenario by name. */
export const run: Record<ScenarioName, (g: Gateway[]) => Promise<Outcome>> = {
  'listen-kill': listenKill,
  restart: (g) => restart(g, 'restart', 0),
  outage: (g) => restart(g, 'outage', OUTAGE_MS),
  writers,
  subscriptions,
  'large-answers': largeAnswers,
  'wrong-tokens': () => wrongTokens(),
  ...natsScenarios,
  'kill-9': kill9,
};
