/**
 * The tmux provider's cost and speed, on a private tmux server:
 * - CPU of `switchboard provider tmux` (its node process, and its control-mode tmux clients
 *   and the tmux server alongside) over DURATION seconds (default 60) with 20 idle bound panes
 *   (a shell at its prompt each). Target: ≤ 2 % of one core for all 20.
 * - change-to-directory latency: from a keystroke that changes a pane (a stand-in agent asked
 *   an approval question, then answering it) until the directory shows the new liveness,
 *   p50/p99 over SAMPLES changes. Target: ≤ 1.5 s.
 *
 *   npm run bench:tmux                          # PGlite
 *   DATABASE_URL=postgres://… npm run bench:tmux
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  benchGateway,
  figure,
  printReport,
  progress,
  seedGoal,
  setting,
  summary,
} from './support.ts';

const DURATION_S = setting('DURATION', 60, 5);
const SAMPLES = setting('SAMPLES', 40, 6);
const PANES = 20;
const root = new URL('..', import.meta.url).pathname;
const bin = path.join(root, 'bin/switchboard.js');
const standin = path.join(root, 'test/fixtures/standin-agent.mjs');
const patterns = path.join(root, 'test/fixtures/standin-patterns.json');

execFileSync(process.execPath, [path.join(root, 'scripts/build-cli.mjs')]);
const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-bench-tmux-'));
const sock = path.join(dir, 'sock');
const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' }).trim();

const { url, gql, stop } = await benchGateway();
const { goalId, agentIds } = await seedGoal(gql, PANES + 1);
const providerId = `bench-tmux-${process.pid}`;
const issued = await gql(
  `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token } }`,
  { input: { kind: 'PROVIDER', providerId, goalIds: [goalId] } },
);

// 20 idle shells and one stand-in agent, each bound to an agent.
const bind = (pane: string, agent: string, kind: string) => {
  tmux('set-option', '-p', '-t', pane, '@switchboard_kind', kind);
  tmux('set-option', '-p', '-t', pane, '@switchboard_agent', agent);
};
const first = tmux(
  'new-session',
  '-d',
  '-s',
  'bench',
  '-x',
  '120',
  '-y',
  '40',
  '-P',
  '-F',
  '#{pane_id}',
  'env',
  'PS1=$ ',
  'sh',
);
bind(first, agentIds[0] as string, 'generic');
for (let i = 1; i < PANES; i++) {
  const pane = tmux(
    'new-window',
    '-d',
    '-t',
    'bench:',
    '-P',
    '-F',
    '#{pane_id}',
    'env',
    'PS1=$ ',
    'sh',
  );
  bind(pane, agentIds[i] as string, 'generic');
}
const agentPane = tmux(
  'new-window',
  '-d',
  '-t',
  'bench:',
  '-P',
  '-F',
  '#{pane_id}',
  'node',
  standin,
);
const agent = agentIds[PANES] as string;
bind(agentPane, agent, 'standin');

const provider = spawn(
  process.execPath,
  [bin, 'provider', 'tmux', '--socket', sock, '--patterns', patterns, '--goal', goalId, '-q'],
  {
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      SWITCHBOARD_URL: url,
      SWITCHBOARD_TOKEN: issued.issueCredential.token,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);

async function directory(): Promise<Map<string, string | undefined>> {
  const data = await gql(
    `query($g: ID!) { directory(goalId: $g) { rows { agentId presence { liveness } } } }`,
    { g: goalId },
  );
  return new Map(data.directory.rows.map((r: any) => [r.agentId, r.presence?.liveness]));
}

async function until(
  test: (rows: Map<string, string | undefined>) => boolean,
  what: string,
  ms = 30_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (test(await directory())) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** utime + stime of a process, in seconds (Linux /proc). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // CLK_TCK = 100 on Linux
  } catch {
    return 0;
  }
}
const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};

try {
  await until(
    (rows) =>
      agentIds.slice(0, PANES).every((a) => rows.get(a) === 'IDLE') && rows.get(agent) === 'IDLE',
    'every pane IDLE',
  );
  await new Promise((resolve) => setTimeout(resolve, 2000)); // let start-up work settle
  const pid = provider.pid as number;
  const serverPid = Number(tmux('display-message', '-p', '#{pid}'));
  const clients = childrenOf(pid);
  const t0 = {
    provider: cpuSeconds(pid),
    clients: clients.reduce((s, c) => s + cpuSeconds(c), 0),
    server: cpuSeconds(serverPid),
  };
  progress('tmux', `${DURATION_S} s of ${PANES} idle panes, then ${SAMPLES} changes`);
  const wall0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, DURATION_S * 1000));
  const wall = (performance.now() - wall0) / 1000;
  const t1 = {
    provider: cpuSeconds(pid),
    clients: clients.reduce((s, c) => s + cpuSeconds(c), 0),
    server: cpuSeconds(serverPid),
  };
  const pct = (a: number, b: number) => Number((((b - a) / wall) * 100).toFixed(3));
  const idle = {
    panes: PANES + 1,
    seconds: Number(wall.toFixed(1)),
    providerCpuPercentOfOneCore: pct(t0.provider, t1.provider),
    providerCpuPercentPerPane: Number((pct(t0.provider, t1.provider) / (PANES + 1)).toFixed(4)),
    controlClientsCpuPercent: pct(t0.clients, t1.clients),
    tmuxServerCpuPercent: pct(t0.server, t1.server),
  };

  // Change-to-directory latency: a question appears (→ BLOCKED), it is answered (→ IDLE/DONE).
  const latencies: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const asking = i % 2 === 0;
    const start = performance.now();
    tmux('send-keys', '-t', agentPane, asking ? 'approve' : 'y', 'Enter');
    await until(
      (rows) =>
        asking
          ? rows.get(agent) === 'BLOCKED'
          : rows.get(agent) === 'IDLE' || rows.get(agent) === 'DONE',
      asking ? 'BLOCKED' : 'back at the prompt',
      10_000,
    );
    latencies.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const s = summary(latencies);
  printReport(
    'tmux',
    [
      figure(
        `tmux provider CPU with ${PANES} idle panes, of one core`,
        idle.providerCpuPercentOfOneCore + idle.controlClientsCpuPercent,
        '%',
        { atMost: 2, source: 'issue 14' },
        'the provider process and its tmux control clients',
      ),
      figure('pane change → directory, p50', s.p50, 'ms'),
      figure('pane change → directory, p99', s.p99, 'ms', { atMost: 1500, source: 'issue 14' }),
    ],
    { idle, changeToDirectoryMs: { ...s, samples: SAMPLES } },
  );
} finally {
  provider.kill('SIGTERM');
  try {
    tmux('kill-server');
  } catch {}
  rmSync(dir, { recursive: true, force: true });
  await stop();
}
