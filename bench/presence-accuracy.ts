/**
 * Presence accuracy: the labelled corpus (bench/corpus/, see bench/accuracy.ts for its format
 * and how it is scored) replayed into real tmux panes under the real `switchboard provider
 * tmux`, against a real gateway (PGlite, or Postgres with DATABASE_URL), REPLAYS times (3), scored
 * as one from what presenceChanged carried:
 * - precision and recall per liveness, and label → subscriber latency of each transition;
 * - then ROUNDS times, on a fresh tmux server with three bound stand-in agents and a provider
 *   declaring a TTL of 2 s: `kill -9` of an agent → its presence ended on the stream; `kill -9`
 *   of the provider → UNKNOWN (PRESENCE_TTL_EXPIRED) on the stream; a new provider, then
 *   `kill -9` of the tmux server → the presence of its panes ended on the stream.
 *
 *   npm run bench:presence-accuracy
 *   DATABASE_URL=postgres://… npm run bench:presence-accuracy
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  corpus,
  type GatewayAccess,
  GRACE_MS,
  goalWithAgents,
  presenceStream,
  replayAndScore,
  runInPane,
  STANDIN,
  STEP_MS,
  startProvider,
  summarize,
  tmuxServer,
} from './accuracy.ts';
import { benchGateway, figure, printReport, progress, setting, summary } from './support.ts';

const ROUNDS = setting('ROUNDS', 5, 2);
/** The corpus is replayed this many times, one after another, and scored as one. */
const REPLAYS = setting('REPLAYS', 3, 1);
const TTL_MS = 2000;
const root = new URL('..', import.meta.url).pathname;
const source = 'issue 33';

execFileSync(process.execPath, [path.join(root, 'scripts/build-cli.mjs')]);
const gateway = await benchGateway();
const access: GatewayAccess = { url: gateway.url, adminToken: gateway.adminToken };

/** One round of kills: the times from each `kill -9` to the change on the stream. */
async function killRound(round: number) {
  const agents = ['agent', 'provider', 'server'].map((what) => `kill-${round}-${what}`);
  const { goalId, token } = await goalWithAgents(access, agents);
  const server = tmuxServer();
  const stream = presenceStream(access, goalId);
  const providers: ReturnType<typeof startProvider>[] = [];
  try {
    const panes: string[] = [];
    for (const agent of agents)
      panes.push(
        await runInPane(access, server, goalId, agent, 'standin', [process.execPath, STANDIN]),
      );
    providers.push(startProvider(access, server, goalId, token, `${TTL_MS}ms`));
    const atPrompt = (c: { state: string }) => c.state === 'IDLE';
    for (const agent of agents) await stream.next(agent, 0, atPrompt);
    const [agentA, agentB, agentC] = agents as [string, string, string];
    const ended = (c: { state: string }) => c.state === 'ENDED';

    const pid = Number(
      await server.tmux('display-message', '-p', '-t', panes[0] as string, '#{pane_pid}'),
    );
    let t = Date.now();
    process.kill(pid, 'SIGKILL');
    const agentMs = (await stream.next(agentA, t, ended)).receivedAt - t;

    t = Date.now();
    providers[0]?.kill('SIGKILL');
    const lapse = await stream.next(agentB, t, (c) => c.state === 'UNKNOWN', TTL_MS + 30_000);
    const providerMs = lapse.receivedAt - t;

    // A new provider brings them back; then the tmux server goes.
    t = Date.now();
    providers.push(startProvider(access, server, goalId, token, `${TTL_MS}ms`));
    await stream.next(agentB, t, (c) => c.state !== 'UNKNOWN');
    await stream.next(agentC, t, (c) => c.state !== 'UNKNOWN');
    const serverPid = Number(await server.tmux('display-message', '-p', '#{pid}'));
    t = Date.now();
    process.kill(serverPid, 'SIGKILL');
    const serverMs = Math.max(
      (await stream.next(agentB, t, ended)).receivedAt - t,
      (await stream.next(agentC, t, ended)).receivedAt - t,
    );
    return { agentMs, providerMs, providerLapse: lapse.coverageGap, serverMs };
  } finally {
    for (const p of providers) await p.stop();
    await stream.close();
    await server.close();
  }
}

try {
  const samples = corpus();
  progress('presence-accuracy', `replaying ${samples.length} samples`);
  const replays = [];
  for (let round = 1; round <= REPLAYS; round++) {
    progress('presence-accuracy', `replay ${round}/${REPLAYS}`);
    replays.push(
      await replayAndScore(access, samples, (line) => progress('presence-accuracy', line)),
    );
  }
  const kills = [];
  for (let round = 1; round <= ROUNDS; round++) {
    progress('presence-accuracy', `kill -9 round ${round}/${ROUNDS}`);
    kills.push(await killRound(round));
  }
  const s = summarize(replays.flatMap((r) => r.scores));
  const agentKill = summary(kills.map((k) => k.agentMs));
  const providerKill = summary(kills.map((k) => k.providerMs));
  const serverKill = summary(kills.map((k) => k.serverMs));
  const ratio = (
    label: 'BLOCKED' | 'WORKING' | 'IDLE' | 'DONE',
    which: 'precision' | 'recall',
    atLeast: number,
  ) => figure(`${label} ${which}`, s.liveness[label][which], 'ratio', { atLeast, source });
  printReport(
    'presence-accuracy',
    [
      ratio('BLOCKED', 'precision', 0.99),
      ratio('BLOCKED', 'recall', 0.99),
      ...(['WORKING', 'IDLE', 'DONE'] as const).flatMap((label) => [
        ratio(label, 'precision', 0.98),
        ratio(label, 'recall', 0.98),
      ]),
      figure('labelled moments matched', s.accuracy, 'ratio'),
      figure('transition → subscriber, p50', s.transitionMs.p50, 'ms'),
      figure('transition → subscriber, p99', s.transitionMs.p99, 'ms', { atMost: 500, source }),
      figure(
        `provider kill -9 → UNKNOWN on the stream, max of ${ROUNDS} (TTL ${TTL_MS} ms)`,
        providerKill.max,
        'ms',
        { atMost: TTL_MS + 2000, source },
      ),
      figure(`tmux server kill -9 → ended on the stream, max of ${ROUNDS}`, serverKill.max, 'ms'),
      figure(`agent kill -9 → ended on the stream, max of ${ROUNDS}`, agentKill.max, 'ms'),
    ],
    {
      scoring: {
        graceMs: GRACE_MS,
        stepMs: STEP_MS,
        rule: 'a moment every stepMs from graceMs after each label to the next, against the liveness in effect on presenceChanged (ENDED once ended); a stretch shorter than graceMs + stepMs is one moment, matched if its liveness reached the stream before graceMs after its end (bench/accuracy.ts)',
      },
      liveness: s.liveness,
      transitionMs: s.transitionMs,
      slowestTransitions: s.slowestTransitions,
      missedTransitions: s.missedTransitions,
      samples: s.samples,
      replays: REPLAYS,
      streamErrors: replays.reduce((n, r) => n + r.streamErrors, 0),
      kills: {
        ttlMs: TTL_MS,
        agentKillMs: agentKill,
        providerKillMs: providerKill,
        serverKillMs: serverKill,
        rounds: kills,
      },
    },
  );
} finally {
  await gateway.stop();
}
