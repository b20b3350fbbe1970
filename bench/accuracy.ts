/**
 * The presence-accuracy corpus, its replay under the real tmux provider and its scoring; used by
 * bench/presence-accuracy.ts and test/presence-accuracy.test.ts.
 *
 * A sample (bench/corpus/*.jsonl) is JSON lines: `{"kind": "<agent kind>"}` (the kind its pane
 * is bound as), `{"at": ms, "data": "<base64>"}` (bytes written then), `{"at": ms, "label":
 * "<liveness>"}` (from then on, the liveness a person reading the screen would give: BLOCKED,
 * WORKING, IDLE, DONE, UNKNOWN, or ENDED once the program is gone), `{"at": ms, "exit": code}`
 * (the program ends); `//` lines are notes, the first saying where its screens come from.
 *
 * Replay: every sample in a pane of its own on one private tmux server (`switchboard run
 * --kind`, test/fixtures/replay.mjs), bound to an agent of its own, under one `switchboard
 * provider tmux`; the stream starts when Enter is sent to its pane (its time 0), the samples a
 * second apart. What the
 * gateway recorded is read from presenceChanged, each change stamped as it is received.
 *
 * Scoring, per sample: the labels cut its time into stretches. A stretch is sampled every
 * STEP_MS from GRACE_MS after it starts to its end, each moment comparing its label with the
 * liveness in effect on the stream then (ENDED once the presence has ended). A stretch shorter
 * than GRACE_MS + STEP_MS (a sub-second command) is one moment: matched when its label was on
 * the stream at any time from its start to GRACE_MS after its end, else it reads what was on
 * the stream GRACE_MS after its start. Per liveness, precision is matched moments / moments the
 * stream said it, recall matched moments / moments labelled it. A transition (each label but
 * UNKNOWN, which no one transitions to: it is the absence of a liveness to give) is timed from
 * its label to the receipt of a change to its liveness, up to GRACE_MS after the next label; a
 * transition to what the stream already said is not timed, one never seen is missed.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { summary } from './support.ts';

export const LABELS = ['BLOCKED', 'WORKING', 'IDLE', 'DONE', 'UNKNOWN', 'ENDED'] as const;
export type Label = (typeof LABELS)[number];
/** What the stream says: a liveness, ENDED, or NONE before its first change. */
export type State = string;

/**
 * The time the provider is given to see a change: its settle time (600 ms) and classification
 * throttle (250 ms), its report batch (60 ms), and 90 ms for the replay's start and the
 * gateway's round trip.
 */
export const GRACE_MS = 1000;
export const STEP_MS = 100;
/** Between the starts of two samples replayed side by side. */
export const START_APART_MS = 1000;
/** How long the last label holds after a sample's last line. */
export const TAIL_MS = 3000;

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const CORPUS = path.join(root, 'bench/corpus');
const BIN = path.join(root, 'bin/switchboard.js');
export const STANDIN = path.join(root, 'test/fixtures/standin-agent.mjs');
const REPLAY = path.join(root, 'test/fixtures/replay.mjs');
const STANDIN_PATTERNS = path.join(root, 'test/fixtures/standin-patterns.json');

export interface Sample {
  name: string;
  file: string;
  kind: string;
  /** Label changes in time order (no two at one time, none equal to the one before). */
  labels: { at: number; label: Label }[];
  /** The sample's end: its last line + TAIL_MS. */
  durationMs: number;
}

/** Reads a sample file. */
export function loadSample(file: string): Sample {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('//'))
    .map((line) => JSON.parse(line) as { kind?: string; at?: number; label?: Label });
  const kind = lines.find((l) => l.kind)?.kind;
  if (!kind) throw new Error(`${file}: no {"kind": …} line`);
  const labels: Sample['labels'] = [];
  for (const { at, label } of lines) {
    if (label === undefined || at === undefined) continue;
    if (!LABELS.includes(label)) throw new Error(`${file}: unknown label ${label}`);
    if (labels.at(-1)?.at === at) labels.pop();
    if (labels.at(-1)?.label !== label) labels.push({ at, label });
  }
  if (labels.length === 0) throw new Error(`${file}: no labels`);
  const last = Math.max(...lines.map((l) => l.at ?? 0));
  return { name: path.basename(file, '.jsonl'), file, kind, labels, durationMs: last + TAIL_MS };
}

/** Every sample of the corpus, by name. */
export const corpus = (): Sample[] =>
  readdirSync(CORPUS)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => loadSample(path.join(CORPUS, name)));

/** The stream's changes for one agent, at ms relative to the sample's time 0. */
export type Timeline = { at: number; state: State }[];

const stateAt = (timeline: Timeline, t: number): State => {
  let state: State = 'NONE';
  for (const e of timeline) {
    if (e.at > t) break;
    state = e.state;
  }
  return state;
};

export interface SampleScore {
  name: string;
  kind: string;
  moments: { at: number; expected: Label; observed: State }[];
  transitions: { at: number; to: Label; latencyMs: number | null; alreadyShown: boolean }[];
}

/** Scores one sample against what the stream said (see the top of this file). */
export function scoreSample(sample: Sample, timeline: Timeline): SampleScore {
  const moments: SampleScore['moments'] = [];
  const transitions: SampleScore['transitions'] = [];
  sample.labels.forEach(({ at: start, label }, i) => {
    const end = sample.labels[i + 1]?.at ?? sample.durationMs;
    if (end - start >= GRACE_MS + STEP_MS)
      for (let t = start + GRACE_MS; t < end; t += STEP_MS)
        moments.push({ at: t, expected: label, observed: stateAt(timeline, t) });
    else {
      const seen =
        stateAt(timeline, start) === label ||
        timeline.some((e) => e.at >= start && e.at <= end + GRACE_MS && e.state === label);
      moments.push({
        at: start,
        expected: label,
        observed: seen ? label : stateAt(timeline, start + GRACE_MS),
      });
    }
    if (label === 'UNKNOWN') return;
    const alreadyShown = stateAt(timeline, start) === label;
    const change = timeline.find(
      (e) => e.at >= start && e.at <= end + GRACE_MS && e.state === label,
    );
    transitions.push({
      at: start,
      to: label,
      latencyMs: alreadyShown || !change ? null : change.at - start,
      alreadyShown,
    });
  });
  return { name: sample.name, kind: sample.kind, moments, transitions };
}

export interface Scores {
  /** Per liveness: precision and recall (null with nothing to divide), and the counts. */
  liveness: Record<
    Label,
    {
      precision: number | null;
      recall: number | null;
      labelled: number;
      observed: number;
      matched: number;
    }
  >;
  /** Matched moments / all moments. */
  accuracy: number;
  /** Label → receipt of the change, over every timed transition. */
  transitionMs: ReturnType<typeof summary>;
  /** The five slowest timed transitions. */
  slowestTransitions: { sample: string; at: number; to: Label; latencyMs: number }[];
  /** Transitions whose liveness never reached the stream in time. */
  missedTransitions: { sample: string; at: number; to: Label }[];
  /** Per sample: its accuracy, and each moment that did not match (label → stream). */
  samples: { name: string; kind: string; accuracy: number; misses: Record<string, number> }[];
}

export function summarize(scores: SampleScore[]): Scores {
  const moments = scores.flatMap((s) => s.moments);
  const ratio = (a: number, b: number) => (b === 0 ? null : a / b);
  const liveness = Object.fromEntries(
    LABELS.map((label) => {
      const labelled = moments.filter((m) => m.expected === label).length;
      const observed = moments.filter((m) => m.observed === label).length;
      const matched = moments.filter((m) => m.expected === label && m.observed === label).length;
      return [
        label,
        {
          precision: ratio(matched, observed),
          recall: ratio(matched, labelled),
          labelled,
          observed,
          matched,
        },
      ];
    }),
  ) as Scores['liveness'];
  const matched = (ms: SampleScore['moments']) => ms.filter((m) => m.expected === m.observed);
  return {
    liveness,
    accuracy: ratio(matched(moments).length, moments.length) ?? 0,
    transitionMs: summary(
      scores.flatMap((s) =>
        s.transitions.flatMap((t) => (t.latencyMs === null ? [] : [t.latencyMs])),
      ),
    ),
    slowestTransitions: scores
      .flatMap((s) =>
        s.transitions.flatMap(({ at, to, latencyMs }) =>
          latencyMs === null ? [] : [{ sample: s.name, at, to, latencyMs }],
        ),
      )
      .sort((a, b) => b.latencyMs - a.latencyMs)
      .slice(0, 5),
    missedTransitions: scores.flatMap((s) =>
      s.transitions
        .filter((t) => !t.alreadyShown && t.latencyMs === null)
        .map((t) => ({ sample: s.name, at: t.at, to: t.to })),
    ),
    samples: scores.map((s) => {
      const misses: Record<string, number> = {};
      for (const m of s.moments)
        if (m.expected !== m.observed) {
          const key = `${m.expected} → ${m.observed}`;
          misses[key] = (misses[key] ?? 0) + 1;
        }
      return {
        name: s.name,
        kind: s.kind,
        accuracy: ratio(matched(s.moments).length, s.moments.length) ?? 0,
        misses,
      };
    }),
  };
}

// ---- the gateway, tmux and the provider ---------------------------------------------------

export interface GatewayAccess {
  url: string;
  adminToken: string;
}

export function gqlOf(gateway: GatewayAccess) {
  return async (
    query: string,
    variables: Record<string, unknown> = {},
    token = gateway.adminToken,
  ) => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: any; errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
}

/** A goal with the agents, and a PROVIDER credential for it. */
export async function goalWithAgents(gateway: GatewayAccess, agentIds: string[]) {
  const gql = gqlOf(gateway);
  const goalId = `accuracy-${Math.random().toString(36).slice(2, 10)}`;
  await gql(
    `mutation($g: ID!) { createGoal(input: { goalId: $g, title: "accuracy" }) { __typename } }`,
    {
      g: goalId,
    },
  );
  for (const agentId of agentIds)
    await gql(
      `mutation($g: ID!, $a: ID!) { registerAgent(input: { goalId: $g, agentId: $a, agentModel: "m", hostSurface: "cli" }) { __typename } }`,
      { g: goalId, a: agentId },
    );
  const providerId = `tmux-${goalId}`;
  const issued = await gql(
    `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token } }`,
    { input: { kind: 'PROVIDER', providerId, goalIds: [goalId] } },
  );
  return { goalId, providerId, token: issued.issueCredential.token as string };
}

/** One change as received: Date.now() at receipt, the state, and the coverage gap named. */
export interface Received {
  receivedAt: number;
  state: State;
  coverageGap: string | null;
}

/** Every presence change of the goal, per agent, stamped at receipt. */
export function presenceStream(gateway: GatewayAccess, goalId: string) {
  const changes = new Map<string, Received[]>();
  const errors: unknown[] = [];
  const client = createClient({
    url: gateway.url.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: { authorization: `Bearer ${gateway.adminToken}` },
  });
  const dispose = client.subscribe<{ presenceChanged: any }>(
    {
      query: `subscription($g: ID!) { presenceChanged(goalId: $g, after: "0") {
        agentId presence { liveness endedAt coverageGap } } }`,
      variables: { g: goalId },
    },
    {
      next: ({ data, errors: e }) => {
        const receivedAt = Date.now();
        if (e) errors.push(...e);
        const change = data?.presenceChanged;
        if (!change?.agentId || !change.presence) return;
        const p = change.presence;
        const list = changes.get(change.agentId) ?? [];
        list.push({
          receivedAt,
          state: p.endedAt ? 'ENDED' : p.liveness,
          coverageGap: p.coverageGap,
        });
        changes.set(change.agentId, list);
      },
      error: (error) => errors.push(error),
      complete: () => {},
    },
  );
  return {
    errors,
    /** The agent's changes, at ms relative to `zero`. */
    timeline: (agentId: string, zero: number): Timeline =>
      (changes.get(agentId) ?? []).map((c) => ({ at: c.receivedAt - zero, state: c.state })),
    /** The agent's first change received at or after `since` that `test` accepts. */
    async next(
      agentId: string,
      since: number,
      test: (change: Received) => boolean,
      timeoutMs = 30_000,
    ): Promise<Received> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = (changes.get(agentId) ?? []).find((c) => c.receivedAt >= since && test(c));
        if (hit) return hit;
        if (Date.now() > deadline)
          throw new Error(
            `${agentId}: no such change within ${timeoutMs} ms; the last: ${JSON.stringify(changes.get(agentId)?.slice(-3))}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    },
    async close() {
      dispose();
      await client.dispose();
    },
  };
}

export type Stream = ReturnType<typeof presenceStream>;

/** A private tmux server (its socket in a fresh folder). */
export function tmuxServer() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-accuracy-'));
  const sock = path.join(dir, 'sock');
  const tmux = (...args: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile('tmux', ['-S', sock, ...args], { encoding: 'utf8' }, (error, stdout, stderr) =>
        error
          ? reject(new Error(`tmux ${args[0]}: ${stderr || error.message}`))
          : resolve(stdout.trim()),
      ),
    );
  return {
    dir,
    sock,
    tmux,
    async close() {
      await tmux('kill-server').catch(() => {});
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
export type TmuxServer = ReturnType<typeof tmuxServer>;

const cli = (args: string[], env: Record<string, string>) =>
  new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      [BIN, ...args],
      { encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1', ...env } },
      (error, stdout, stderr) =>
        error ? reject(new Error(`switchboard ${args[0]}: ${stderr}`)) : resolve(stdout),
    ),
  );

/** `switchboard run <agent> --kind <kind> -- <command>` on the server: the pane id. */
export async function runInPane(
  gateway: GatewayAccess,
  server: TmuxServer,
  goalId: string,
  agentId: string,
  kind: string,
  command: string[],
): Promise<string> {
  const out = await cli(
    ['run', agentId, '--socket', server.sock, '--kind', kind, '--json', '--', ...command],
    { SWITCHBOARD_URL: gateway.url, SWITCHBOARD_GOAL: goalId, HOME: server.dir },
  );
  return JSON.parse(out).pane as string;
}

/** `switchboard provider tmux` on the server, with a TTL of `ttl` (e.g. "2s"). */
export function startProvider(
  gateway: GatewayAccess,
  server: TmuxServer,
  goalId: string,
  token: string,
  ttl: string,
) {
  const child = spawn(
    process.execPath,
    [
      ...[BIN, 'provider', 'tmux', '--socket', server.sock, '--patterns', STANDIN_PATTERNS],
      ...[
        '--hook-socket',
        path.join(server.dir, 'hook.sock'),
        '--goal',
        goalId,
        '--ttl',
        ttl,
        '-q',
      ],
    ],
    {
      env: {
        PATH: process.env.PATH,
        HOME: server.dir,
        SWITCHBOARD_URL: gateway.url,
        SWITCHBOARD_TOKEN: token,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid as number,
    exited,
    kill: (signal: NodeJS.Signals) => child.kill(signal),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Replays the samples side by side under one real provider and scores what the gateway
 * recorded; `log` reports progress.
 */
export async function replayAndScore(
  gateway: GatewayAccess,
  samples: Sample[],
  log: (line: string) => void = () => {},
) {
  const agents = samples.map((s, i) => `${String(i).padStart(2, '0')}-${s.name}`.slice(0, 64));
  const { goalId, token } = await goalWithAgents(gateway, agents);
  const server = tmuxServer();
  const stream = presenceStream(gateway, goalId);
  const provider = { current: undefined as ReturnType<typeof startProvider> | undefined };
  try {
    const panes: string[] = [];
    for (const [i, sample] of samples.entries())
      panes.push(
        await runInPane(gateway, server, goalId, agents[i] as string, sample.kind, [
          process.execPath,
          REPLAY,
          sample.file,
          '--on-enter',
        ]),
      );
    provider.current = startProvider(gateway, server, goalId, token, '60s');
    // Watched: each pane (blank until Enter) has a presence on the stream.
    for (const agent of agents) await stream.next(agent, 0, () => true);
    log(`${samples.length} panes watched; replaying`);
    const zero: number[] = [];
    // Started a second apart: eight sessions that begin at one instant are not what a provider
    // meets, and would time the first look at all of them at once.
    for (const pane of panes) {
      await server.tmux('send-keys', '-t', pane, 'Enter');
      zero.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, START_APART_MS));
    }
    const end = Math.max(...samples.map((s, i) => (zero[i] as number) + s.durationMs));
    await new Promise((resolve) => setTimeout(resolve, end - Date.now() + GRACE_MS));
    const scores = samples.map((sample, i) =>
      scoreSample(sample, stream.timeline(agents[i] as string, zero[i] as number)),
    );
    return { scores, summary: summarize(scores), streamErrors: stream.errors.length };
  } finally {
    await provider.current?.stop();
    await stream.close();
    await server.close();
  }
}
