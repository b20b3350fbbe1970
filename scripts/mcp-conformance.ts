/**
 * `npm run mcp:conformance`: the official MCP conformance suite (@modelcontextprotocol/
 * conformance, pinned below) against `switchboard mcp --http`. It starts a gateway (in memory,
 * on a free port) with one goal, one agent and its PEER token, serves MCP over HTTP as that
 * agent on a loopback port (the suite's client sends no credential: the server's own serves
 * it), and runs every active server scenario with the expected failures of
 * scripts/mcp-conformance-baseline.yml — the scenarios that call the reference server's own
 * fixtures (docs/agents.md lists them). The suite needs Node 22: it runs on the `node` package
 * of the npm registry, through npx, for this script only.
 *
 * Writes test-results/mcp-conformance/summary.json (each scenario's checks, the suite's exit
 * code), which test/mcp-conformance.test.ts reads; exits with the suite's code (0: only the
 * expected failures, none of them passing now).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CreateGoalDocument,
  createClient,
  IssueCredentialDocument,
  RegisterAgentDocument,
} from '../src/client/index.ts';
import { loadConfig } from '../src/config.ts';
import { startGateway } from '../src/gateway.ts';
import { createLogger } from '../src/log.ts';

export const SUITE = '@modelcontextprotocol/conformance@0.1.16';
export const NODE = 'node@22.23.3';
const SUITE_TIMEOUT_MS = 10 * 60_000;

const root = fileURLToPath(new URL('..', import.meta.url));
const out = path.join(root, 'test-results', 'mcp-conformance');
const baseline = path.join(root, 'scripts', 'mcp-conformance-baseline.yml');

/** Runs a command to its end, its output on ours; resolves with its exit code. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), SUITE_TIMEOUT_MS);
  return new Promise<number>((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code ?? 1);
    }),
  );
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
if ((await run(process.execPath, ['scripts/build-cli.mjs'])) !== 0) process.exit(1);

const adminToken = `conformance-${crypto.randomUUID()}`;
const config = {
  ...loadConfig({ SWITCHBOARD_DATA_DIR: 'memory:', PORT: '0', LOG_LEVEL: 'warn' }),
  adminToken,
};
const gateway = await startGateway(config, createLogger(config.logLevel));
const admin = createClient({ url: gateway.url, token: adminToken });
const goalId = 'conformance';
await admin.request(CreateGoalDocument, { input: { goalId, title: 'MCP conformance' } });
await admin.request(RegisterAgentDocument, {
  input: { goalId, agentId: 'suite', agentModel: 'conformance', hostSurface: 'http' },
});
const { issueCredential } = await admin.request(IssueCredentialDocument, {
  input: { kind: 'PEER', goalId, agentId: 'suite', label: 'mcp conformance' },
});

const mcp = spawn(
  process.execPath,
  ['bin/switchboard.js', 'mcp', '--http', '127.0.0.1:0', '--tools', 'all'],
  {
    cwd: root,
    env: {
      ...process.env,
      SWITCHBOARD_URL: gateway.url,
      SWITCHBOARD_TOKEN: issueCredential.token,
      SWITCHBOARD_GOAL: goalId,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);
let log = '';
const url = await new Promise<string>((resolve, reject) => {
  mcp.stderr.on('data', (chunk) => {
    log += chunk;
    const found = / over HTTP at (\S+)/.exec(log)?.[1];
    if (found) resolve(found);
  });
  mcp.once('exit', () => reject(new Error(`switchboard mcp --http exited: ${log}`)));
});

const results = path.join(out, 'checks');
const exitCode = await run('npx', [
  '--yes',
  '-p',
  NODE,
  '-p',
  SUITE,
  '--',
  'conformance',
  'server',
  '--url',
  url,
  '--expected-failures',
  baseline,
  '-o',
  results,
]);
mcp.kill('SIGTERM');
await gateway.stop();

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}
const scenarios: Record<string, { status: string; id: string; error?: string }[]> = {};
for (const dir of readdirSync(results, { withFileTypes: true })) {
  if (!dir.isDirectory()) continue;
  // server-<scenario>-<ISO time with - for : and .>
  const scenario = dir.name.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
  const checks = JSON.parse(readFileSync(path.join(results, dir.name, 'checks.json'), 'utf8'));
  scenarios[scenario] = (checks as Check[]).map((c) => ({
    id: c.id,
    status: c.status,
    ...(c.errorMessage ? { error: c.errorMessage } : {}),
  }));
}
writeFileSync(
  path.join(out, 'summary.json'),
  `${JSON.stringify({ suite: SUITE, node: NODE, exitCode, scenarios }, null, 2)}\n`,
);
console.log(`mcp conformance: exit ${exitCode}; ${path.relative(root, out)}/summary.json`);
process.exit(exitCode);
