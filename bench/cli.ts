/**
 * Start-up cost of the `switchboard` binary as agents use it: wall time of
 * `switchboard whoami --json` and `switchboard directory --json` (a goal of 100 agents with
 * presence), median of 20 runs each, against a gateway in its own process. Node's own start
 * (`node -e 0`) is measured alongside, since it is the floor. Target: ≤ 200 ms.
 *
 *   npm run bench:cli                          # PGlite
 *   DATABASE_URL=postgres://… npm run bench:cli
 */
import { execFileSync, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { benchGateway, figure, printReport, seedGoal, setting, summary } from './support.ts';

const RUNS = setting('RUNS', 20, 3);
const AGENTS = 100;
const bin = new URL('../bin/switchboard.js', import.meta.url).pathname;

execFileSync(process.execPath, [new URL('../scripts/build-cli.mjs', import.meta.url).pathname]);
const { url, gql, stop } = await benchGateway();
const { goalId, agentIds, report } = await seedGoal(gql, AGENTS);
await report(agentIds, 'WORKING');
const issued = await gql(
  `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token } }`,
  { input: { kind: 'PEER', goalId, agentId: agentIds[0] } },
);
const env = {
  PATH: process.env.PATH,
  HOME: '/nonexistent-switchboard-bench',
  SWITCHBOARD_URL: url,
  SWITCHBOARD_TOKEN: issued.issueCredential.token as string,
  SWITCHBOARD_GOAL: goalId,
};

function timed(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('close', (code) => {
      const ms = performance.now() - start;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}`));
      else if (args.includes('directory') && JSON.parse(out).rows.length !== AGENTS)
        reject(new Error('directory did not list every agent'));
      else resolve(ms);
    });
  });
}

async function measure(args: string[]) {
  for (let i = 0; i < 2; i++) await timed(args); // warm the OS file cache and the gateway
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(args));
  return { ...summary(times), runs: RUNS };
}

const nodeStart = await measure(['-e', '0']);
const whoami = await measure([bin, 'whoami', '--json']);
const directory = await measure([bin, 'directory', '--json']);
printReport(
  'cli',
  [
    figure('switchboard whoami --json, median', whoami.p50, 'ms', {
      atMost: 200,
      source: 'issue 12',
    }),
    figure(`switchboard directory --json (${AGENTS} agents), median`, directory.p50, 'ms', {
      atMost: 200,
      source: 'issue 12',
    }),
    figure("Node's own start (node -e 0), median", nodeStart.p50, 'ms'),
  ],
  {
    bundleBytes: statSync(new URL('../dist/cli/switchboard.js', import.meta.url)).size,
    nodeStartMs: nodeStart,
    whoamiJsonMs: whoami,
    directoryJsonMs: { agents: AGENTS, ...directory },
  },
);
await stop();
