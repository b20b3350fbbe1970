/**
 * The suite's Postgres cluster of its own (started here, stopped at the end; the main cluster
 * is never touched), and the cleanup that runs on any exit: clients disposed, gateways
 * killed, the cluster stopped.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import type { Client } from 'graphql-ws';
import { CLUSTER, type Gateway, PORT, say } from './settings.ts';

// ---------------------------------------------------------------- the cluster of its own

const cluster = (action: string, ...args: string[]) =>
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', ...CLUSTER, action, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });

/** The same, without blocking the event loop: clients keep receiving while it runs. */
export const clusterAsync = (action: string, ...args: string[]) =>
  promisify(execFile)('pg_ctlcluster', ['--skip-systemctl-redirect', ...CLUSTER, action, ...args]);

function clusterExists(): boolean {
  const listed = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
  return listed.split('\n').some((line) => line.split(/\s+/)[1] === CLUSTER[1]);
}

function clusterOnline(): boolean {
  const listed = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
  return listed.split('\n').some((line) => {
    const [, name, , status] = line.split(/\s+/);
    return name === CLUSTER[1] && status === 'online';
  });
}

let clusterStarted = false;
export function startCluster(): void {
  if (!clusterExists()) {
    say(`creating cluster ${CLUSTER.join('/')} on port ${PORT}`);
    execFileSync('pg_createcluster', [...CLUSTER, '-p', String(PORT), '--', '--auth=trust'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  }
  if (!clusterOnline()) cluster('start');
  clusterStarted = true;
}

function stopCluster(): void {
  if (!clusterStarted) return;
  clusterStarted = false;
  try {
    if (clusterOnline()) cluster('stop', '-m', 'fast');
  } catch (error) {
    process.stderr.write(`faults: could not stop cluster ${CLUSTER.join('/')}: ${error}\n`);
  }
}

// ---------------------------------------------------------------- cleanup, even on failure

/** The suite's gateway processes; kill-9 takes its victim out first. */
export const gateways: Gateway[] = [];
/** Every client open now, so an exit disposes of them. */
export const clients = new Set<Client>();

/** From now on any exit (an interrupt too) disposes of clients, kills gateways, stops the cluster. */
export function cleanUpOnExit(): void {
  process.on('exit', () => {
    for (const client of clients) void client.dispose();
    for (const gateway of gateways) gateway.kill('SIGKILL');
    stopCluster();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => process.exit(130));
  }
}
