/**
 * A fleet of hosts on one machine: each host a Linux network namespace, joined by veth links
 * to two bridges in a namespace of their own — the LAN (gateways, agent hosts, and this
 * process's host as the operator) and the database network (the database host and the
 * gateways). The database host runs a Postgres of its own (initdb into a temporary folder,
 * listening on its address), each gateway host a real gateway (dist/gateway.js, as `npm start`
 * runs it, built from the sources first), and each agent
 * host its own tmux server (a private socket) with `switchboard provider tmux` and stand-in
 * agents started by `switchboard run`. Every client of the fleet is configured with both
 * gateways. Faults are one call each: cut a host's link (`ip link set … down` at the bridge:
 * its packets vanish, as when a cable is pulled), cut a gateway off the database network,
 * delay and lose frames on every link (fleet-wire.py: a user-space switch, as `tc qdisc … netem`
 * would, which not every kernel has), kill a host's processes.
 *
 * Names carry `sbf-<pid>-`, the pid of the process that built them: `removeStaleFleets`
 * deletes what a process that is gone left behind, and `teardown` (also on exit) what this
 * one made. Traffic flows only between these namespaces and this process's own veth. Root only.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient, type SwitchboardClient } from '../../src/client/index.ts';
import { BIN } from './cli.ts';
import {
  createGoal,
  eventually,
  type GatewayClient,
  issueCredential,
  registerAgent,
  uid,
} from './harness.ts';
import { STANDIN, STANDIN_PATTERNS } from './tmux.ts';

const run = promisify(execFile);
const PG_BIN = '/usr/lib/postgresql/15/bin';
const PG_PORT = 55_432;
const GATEWAY_PORT = 4000;
const PREFIX = 'sbf-';
const WIRE = fileURLToPath(new URL('./fleet-wire.py', import.meta.url));
/** The bridge namespace's ports and the bridge each belongs to. */
const PORTS: [string, 'lan' | 'dbnet'][] = [
  ...['gw1', 'gw2', 'a1', 'a2', 'a3', 'op'].map((h) => [`l-${h}`, 'lan'] as [string, 'lan']),
  ...['db', 'gw1', 'gw2'].map((h) => [`d-${h}`, 'dbnet'] as [string, 'dbnet']),
];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Kills every process in the namespace and deletes it (synchronous: usable on exit). */
function destroyNamespace(ns: string): void {
  try {
    const pids = execFileSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
  } catch {}
  try {
    execFileSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
  } catch {}
}

/** Deletes the namespaces of fleets whose building process has gone. */
export function removeStaleFleets(): void {
  let listed = '';
  try {
    listed = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  } catch {
    return;
  }
  for (const line of listed.split('\n')) {
    const name = line.split(' ')[0] ?? '';
    const match = /^sbf-(\d+)-/.exec(name);
    if (match && !alive(Number(match[1]))) destroyNamespace(name);
  }
}

export type HostName = 'db' | 'gw1' | 'gw2' | 'a1' | 'a2' | 'a3';
const AGENT_HOSTS = ['a1', 'a2', 'a3'] as const;
export type AgentHostName = (typeof AGENT_HOSTS)[number];
const LAN_HOSTS = ['gw1', 'gw2', ...AGENT_HOSTS] as const;
const LAN_OCTET: Record<Exclude<HostName, 'db'>, number> = {
  gw1: 11,
  gw2: 12,
  a1: 21,
  a2: 22,
  a3: 23,
};

/** Two free /24 networks for the LAN and the database network. */
function subnets(): { lan: string; db: string } {
  const routes = execFileSync('ip', ['-4', 'route'], { encoding: 'utf8' });
  const addresses = execFileSync('ip', ['-4', '-o', 'addr'], { encoding: 'utf8' });
  for (let i = 0; i < 200; i++) {
    const second = 200 + ((process.pid + i) % 50);
    const third = ((process.pid >> 3) + i * 2) % 250;
    const lan = `10.${second}.${third}`;
    const db = `10.${second}.${third + 1}`;
    if (![lan, db].some((net) => routes.includes(`${net}.`) || addresses.includes(`${net}.`)))
      return { lan, db };
  }
  throw new Error('no free 10.x.y.0/24 networks for the fleet');
}

export interface FleetOptions {
  /** The providers' --ttl (default 3s). */
  ttl?: string;
  /** Stand-in agents per agent host (default 2). */
  agentsPerHost?: number;
  /** Extra environment of the gateways. */
  gatewayEnv?: Record<string, string>;
  /** Extra arguments of each provider. */
  providerArgs?: string[];
  log?: (line: string) => void;
}

export interface AgentHost {
  name: AgentHostName;
  ns: string;
  address: string;
  /** The tmux server's socket (one server per host). */
  sock: string;
  hookSock: string;
  providerId: string;
  providerToken: string;
  /** The agents running here, in panes started by `switchboard run`. */
  agents: string[];
  /** The provider's stderr so far. */
  providerLog(): string;
  /** Stops the provider and starts it again with this --ttl (the same tmux server: rows continue). */
  restartProvider(ttl: string): Promise<void>;
  /** Runs tmux against this host's server. */
  tmux(...args: string[]): Promise<string>;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  json<T = any>(): T;
}

/**
 * Runs the `switchboard` binary on a host (in its namespace; 'operator' is this process's own)
 * against both gateways.
 */
export type FleetCli = (
  host: HostName | 'operator',
  args: string[],
  env?: Record<string, string>,
  timeoutMs?: number,
) => Promise<CliResult>;

export interface Fleet extends GatewayClient {
  goalId: string;
  /** The namespace of the bridges (LAN ports l-<host>, database ports d-<host>). */
  bridge: string;
  adminToken: string;
  /** Each gateway's GraphQL URL, as the operator host reaches it. */
  gateways: [string, string];
  /** Both, as every client of the fleet is configured: SWITCHBOARD_URL. */
  url: string;
  agentHosts: AgentHost[];
  /** Every agent of the fleet, by the host it runs on. */
  hostOf: Map<string, AgentHost>;
  /** A client of the operator host as ADMIN (both gateways). */
  admin: SwitchboardClient;
  cli: FleetCli;
  /** Starts a stand-in agent on the host (registering it first unless it is registered). */
  startAgent(host: AgentHost, agentId: string, env?: Record<string, string>): Promise<string>;
  /** The host's LAN link down at the bridge: nothing reaches it or leaves it. */
  cut(host: HostName): Promise<void>;
  heal(host: HostName): Promise<void>;
  /** The gateway's link to the database network down (its LAN link stays up). */
  cutDatabase(gateway: 'gw1' | 'gw2'): Promise<void>;
  healDatabase(gateway: 'gw1' | 'gw2'): Promise<void>;
  /**
   * Delay and loss on every link: the bridges' ports move to a user-space switch
   * (fleet-wire.py) that holds each frame `delayMs` and drops `lossPercent` of them at
   * random (this kernel may have no netem); `null` gives them back to the bridges.
   */
  impair(netem: { delayMs: number; lossPercent: number } | null): Promise<void>;
  /** SIGKILL for every process in the host's namespace. */
  kill(host: HostName): Promise<void>;
  /** Starts the gateway again (after kill). */
  restartGateway(gateway: 'gw1' | 'gw2'): Promise<void>;
  /**
   * Runs SQL with psql on the database host as postgres, for what the API does not say (when a
   * row was committed); the rows come back as lines of `|`-separated fields.
   */
  sql(query: string): Promise<string[]>;
  teardown(): Promise<void>;
}

/** Builds the fleet: namespaces, links, Postgres, two gateways, three agent hosts. */
export async function startFleet(options: FleetOptions = {}): Promise<Fleet> {
  removeStaleFleets();
  const log = options.log ?? (() => {});
  const tag = `${PREFIX}${process.pid}-${Math.random().toString(36).slice(2, 6)}`;
  const ns = (host: HostName | 'br') => `${tag}-${host}`;
  const hosts: HostName[] = ['db', 'gw1', 'gw2', ...AGENT_HOSTS];
  const rootLink = `sbf${process.pid}${tag.slice(-2)}`.slice(0, 15);
  const net = subnets();
  const lanAddress = (host: Exclude<HostName, 'db'>) => `${net.lan}.${LAN_OCTET[host]}`;
  const dbAddress = `${net.db}.1`;
  const dir = mkdtempSync(path.join(tmpdir(), 'sb-fleet-'));
  const children = new Set<ChildProcess>();
  /** The user-space switch that delays and drops frames while the fleet is impaired. */
  let wire: ChildProcess | undefined;
  let torn = false;

  const ip = (...args: string[]) => run('ip', args).then(() => {});
  const destroyAll = () => {
    for (const child of children) child.kill('SIGKILL');
    for (const host of hosts) destroyNamespace(ns(host));
    destroyNamespace(ns('br'));
    try {
      execFileSync('ip', ['link', 'del', rootLink], { stdio: 'ignore' });
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', destroyAll);

  /** Spawns a command in the host's namespace. */
  const spawnIn = (
    host: HostName | 'operator',
    command: string,
    args: string[],
    env: Record<string, string | undefined> = {},
  ) => {
    const [file, argv] =
      host === 'operator' ? [command, args] : ['ip', ['netns', 'exec', ns(host), command, ...args]];
    const child = spawn(file, argv, {
      env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1', LANG: 'C.UTF-8', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
    return child;
  };

  const collect = (child: ChildProcess, timeoutMs: number, what: string) =>
    new Promise<CliResult>((resolve, reject) => {
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr?.on('data', (chunk) => {
        stderr += chunk;
      });
      child.stdin?.end();
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${what} ran over ${timeoutMs} ms; stderr: ${stderr}`));
      }, timeoutMs);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({
          code,
          stdout,
          stderr,
          json: () => {
            try {
              return JSON.parse(stdout);
            } catch {
              throw new Error(`${what}: not JSON (exit ${code}): ${stdout}\nstderr: ${stderr}`);
            }
          },
        });
      });
    });

  try {
    // ---- the network
    for (const host of [...hosts, 'br' as const]) await ip('netns', 'add', ns(host));
    for (const host of [...hosts, 'br' as const])
      await ip('-n', ns(host), 'link', 'set', 'lo', 'up');
    for (const bridge of ['lan', 'dbnet']) {
      await ip('-n', ns('br'), 'link', 'add', bridge, 'type', 'bridge');
      await ip('-n', ns('br'), 'link', 'set', bridge, 'up');
    }
    const link = async (
      host: HostName,
      device: string,
      bridge: 'lan' | 'dbnet',
      port: string,
      address: string,
    ) => {
      await ip(
        'link',
        'add',
        device,
        'netns',
        ns(host),
        'type',
        'veth',
        'peer',
        'name',
        port,
        'netns',
        ns('br'),
      );
      await ip('-n', ns('br'), 'link', 'set', port, 'master', bridge, 'up');
      await ip('-n', ns(host), 'addr', 'add', `${address}/24`, 'dev', device);
      await ip('-n', ns(host), 'link', 'set', device, 'up');
    };
    for (const host of LAN_HOSTS) await link(host, 'lan0', 'lan', `l-${host}`, lanAddress(host));
    await link('db', 'db0', 'dbnet', 'd-db', dbAddress);
    await link('gw1', 'db0', 'dbnet', 'd-gw1', `${net.db}.11`);
    await link('gw2', 'db0', 'dbnet', 'd-gw2', `${net.db}.12`);
    // The operator: this process's own namespace on the LAN.
    await ip('link', 'add', rootLink, 'type', 'veth', 'peer', 'name', 'l-op', 'netns', ns('br'));
    await ip('-n', ns('br'), 'link', 'set', 'l-op', 'master', 'lan', 'up');
    await ip('addr', 'add', `${net.lan}.1/24`, 'dev', rootLink);
    await ip('link', 'set', rootLink, 'up');
    log(`fleet ${tag}: LAN ${net.lan}.0/24, database network ${net.db}.0/24`);

    // ---- the database host
    const pgData = path.join(dir, 'pg');
    const pgRun = path.join(dir, 'pgrun');
    await run('mkdir', ['-p', pgData, pgRun]);
    await run('chmod', ['755', dir]);
    await run('chown', ['postgres:postgres', pgData, pgRun]);
    await run('runuser', [
      '-u',
      'postgres',
      '--',
      `${PG_BIN}/initdb`,
      '-D',
      pgData,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--no-sync',
    ]);
    // Trust on the database network: it reaches only the gateways' hosts.
    appendFileSync(path.join(pgData, 'pg_hba.conf'), `host all all ${net.db}.0/24 trust\n`);
    const postgres = spawnIn('db', 'runuser', [
      '-u',
      'postgres',
      '--',
      `${PG_BIN}/postgres`,
      '-D',
      pgData,
      '-p',
      String(PG_PORT),
      '-k',
      pgRun,
      '-c',
      `listen_addresses=${dbAddress}`,
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'max_connections=200',
    ]);
    let pgLog = '';
    postgres.stderr?.on('data', (chunk) => {
      pgLog += chunk;
    });
    await eventually(
      async () => {
        const ready = await run('ip', [
          'netns',
          'exec',
          ns('db'),
          `${PG_BIN}/pg_isready`,
          '-h',
          dbAddress,
          '-p',
          String(PG_PORT),
        ]).then(
          () => true,
          () => undefined,
        );
        return ready;
      },
      `Postgres on the database host (${pgLog.slice(-400)})`,
      30_000,
    );
    const databaseUrl = `postgres://postgres@${dbAddress}:${PG_PORT}/postgres`;

    // ---- the gateway hosts: the bundle `npm start` runs, built from the sources now
    await run(process.execPath, [path.resolve('scripts/build-gateway.mjs'), '--no-template']);
    const adminToken = `fleet-admin-${randomUUID()}`;
    const gatewayUrl = (host: 'gw1' | 'gw2') =>
      `http://${lanAddress(host)}:${GATEWAY_PORT}/graphql`;
    const gatewayLogs: Record<string, string> = { gw1: '', gw2: '' };
    const startGatewayOn = async (host: 'gw1' | 'gw2') => {
      const child = spawnIn(host, process.execPath, [path.resolve('dist/gateway.js')], {
        HOST: lanAddress(host),
        PORT: String(GATEWAY_PORT),
        DATABASE_URL: databaseUrl,
        SWITCHBOARD_ADMIN_TOKEN: adminToken,
        SWITCHBOARD_DATA_DIR: path.join(dir, host),
        SWITCHBOARD_EXPLORATION: 'false',
        SWITCHBOARD_DRAIN_MS: '0',
        SWITCHBOARD_MAX_REQUESTS_PER_SECOND: '0',
        SWITCHBOARD_MAX_PENDING_WAITS: '0',
        LOG_LEVEL: 'warn',
        ...options.gatewayEnv,
      });
      child.stderr?.on('data', (chunk) => {
        gatewayLogs[host] = (gatewayLogs[host] + chunk).slice(-4000);
      });
      child.stdout?.resume();
      await eventually(
        async () => {
          if (child.exitCode !== null)
            throw new Error(`gateway ${host} exited: ${gatewayLogs[host]}`);
          const response = await fetch(gatewayUrl(host).replace('/graphql', '/readyz')).catch(
            () => undefined,
          );
          return response?.status === 200 ? true : undefined;
        },
        `gateway on ${host}`,
        60_000,
      );
    };
    await Promise.all([startGatewayOn('gw1'), startGatewayOn('gw2')]);
    const gateways: [string, string] = [gatewayUrl('gw1'), gatewayUrl('gw2')];
    const url = gateways.join(',');
    const admin = createClient({ url, token: adminToken });
    const ok: GatewayClient['ok'] = async (query, variables, token) => {
      const client = token === undefined ? admin : createClient({ url, token });
      const request = client.request as (q: unknown, v: unknown) => Promise<never>;
      return request(query, variables ?? {});
    };
    log(`gateways ready: ${url}`);

    const cli: FleetCli = (host, args, env = {}, timeoutMs = 30_000) =>
      collect(
        spawnIn(host, process.execPath, [BIN, ...args], {
          XDG_CONFIG_HOME: path.join(dir, 'config', host),
          SWITCHBOARD_URL: url,
          ...env,
        }),
        timeoutMs,
        `switchboard ${args.join(' ')} on ${host}`,
      );

    // ---- the agent hosts
    const goalId = await createGoal({ ok });
    const agentHosts: AgentHost[] = [];
    const hostOf = new Map<string, AgentHost>();
    for (const name of AGENT_HOSTS) {
      const hostDir = path.join(dir, name);
      mkdirSync(hostDir, { mode: 0o700 });
      const sock = path.join(hostDir, 'tmux.sock');
      const hookSock = path.join(hostDir, 'hook.sock');
      const providerId = `${name}-${uid('tmux')}`;
      const { token } = await issueCredential(
        { ok },
        { kind: 'PROVIDER', providerId, goalIds: [goalId] },
      );
      let providerLog = '';
      let provider: ChildProcess | undefined;
      const startProvider = async (ttl: string) => {
        if (provider && provider.exitCode === null && provider.signalCode === null) {
          const exited = new Promise((resolve) => provider?.once('exit', resolve));
          provider.kill('SIGTERM');
          await exited;
        }
        providerLog = '';
        const started = spawnIn(
          name,
          process.execPath,
          [
            BIN,
            'provider',
            'tmux',
            '--socket',
            sock,
            '--patterns',
            STANDIN_PATTERNS,
            '--hook-socket',
            hookSock,
            '--goal',
            goalId,
            '--ttl',
            ttl,
            // Namespaces share the machine's host name: each host declares its own.
            '--host',
            name,
            ...(options.providerArgs ?? []),
          ],
          {
            SWITCHBOARD_URL: url,
            SWITCHBOARD_TOKEN: token,
            XDG_CONFIG_HOME: path.join(hostDir, 'config'),
          },
        );
        provider = started;
        started.stdout?.resume();
        started.stderr?.on('data', (chunk) => {
          providerLog = (providerLog + chunk).slice(-20_000);
        });
        await eventually(
          () => {
            if (started.exitCode !== null)
              throw new Error(`provider on ${name} exited: ${providerLog}`);
            return /tmux provider .*; hook socket /.test(providerLog) ? true : undefined;
          },
          `provider on ${name}`,
          20_000,
        );
      };
      await startProvider(options.ttl ?? '3s');
      const host: AgentHost = {
        name,
        ns: ns(name),
        address: lanAddress(name),
        sock,
        hookSock,
        providerId,
        providerToken: token,
        agents: [],
        providerLog: () => providerLog,
        restartProvider: startProvider,
        tmux: (...args) =>
          run('tmux', ['-S', sock, ...args], { encoding: 'utf8' }).then((r) => r.stdout),
      };
      agentHosts.push(host);
    }

    const startAgent = async (
      host: AgentHost,
      agentId: string,
      env: Record<string, string> = {},
    ) => {
      await registerAgent({ ok }, goalId, agentId).catch((error: Error) => {
        if (!/AgentAlreadyRegistered|already/i.test(error.message)) throw error;
      });
      const prefix = Object.keys(env).length
        ? ['env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`)]
        : [];
      const result = await cli(
        host.name,
        [
          'run',
          agentId,
          '--socket',
          host.sock,
          '--kind',
          'standin',
          '--json',
          '--',
          ...prefix,
          'node',
          STANDIN,
        ],
        {
          SWITCHBOARD_GOAL: goalId,
        },
      );
      if (result.code !== 0) throw new Error(`switchboard run on ${host.name}: ${result.stderr}`);
      host.agents.push(agentId);
      hostOf.set(agentId, host);
      return result.json<{ pane: string }>().pane;
    };
    for (const host of agentHosts)
      for (let i = 0; i < (options.agentsPerHost ?? 2); i++)
        await startAgent(host, `${host.name}-agent-${i}`);

    const setLink = (port: string, state: 'up' | 'down') =>
      ip('-n', ns('br'), 'link', 'set', port, state);
    const fleet: Fleet = {
      goalId,
      bridge: ns('br'),
      adminToken,
      gateways,
      url,
      agentHosts,
      hostOf,
      admin,
      ok,
      cli,
      startAgent,
      cut: (host) => setLink(host === 'db' ? 'd-db' : `l-${host}`, 'down'),
      heal: (host) => setLink(host === 'db' ? 'd-db' : `l-${host}`, 'up'),
      cutDatabase: (gateway) => setLink(`d-${gateway}`, 'down'),
      healDatabase: (gateway) => setLink(`d-${gateway}`, 'up'),
      async impair(netem) {
        if (wire) {
          const exited = new Promise((resolve) => wire?.once('exit', resolve));
          wire.kill('SIGTERM');
          await exited;
          wire = undefined;
          for (const [port, bridge] of PORTS)
            await ip('-n', ns('br'), 'link', 'set', port, 'master', bridge);
        }
        if (!netem) return;
        // Frames cross user space whole: no offloads (checksums filled in, no giant segments).
        const devices: [string | null, string][] = [
          ...LAN_HOSTS.map((h) => [ns(h), 'lan0'] as [string, string]),
          ...(['db', 'gw1', 'gw2'] as const).map((h) => [ns(h), 'db0'] as [string, string]),
          [null, rootLink],
          ...PORTS.map(([port]) => [ns('br'), port] as [string, string]),
        ];
        for (const [namespace, device] of devices) {
          const off = ['-K', device, 'tx', 'off', 'tso', 'off', 'gso', 'off', 'gro', 'off'];
          await (namespace
            ? run('ip', ['netns', 'exec', namespace, 'ethtool', ...off])
            : run('ethtool', off));
        }
        for (const [port] of PORTS) await ip('-n', ns('br'), 'link', 'set', port, 'nomaster');
        wire = spawn(
          'ip',
          [
            'netns',
            'exec',
            ns('br'),
            'python3',
            WIRE,
            String(netem.delayMs),
            String(netem.lossPercent),
            PORTS.filter(([, b]) => b === 'lan')
              .map(([p]) => p)
              .join(','),
            PORTS.filter(([, b]) => b === 'dbnet')
              .map(([p]) => p)
              .join(','),
          ],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        children.add(wire);
        const started = wire;
        let said = '';
        started.stdout?.on('data', (chunk) => {
          said += chunk;
        });
        started.stderr?.on('data', (chunk) => {
          said += chunk;
        });
        await eventually(
          () => {
            if (started.exitCode !== null) throw new Error(`the impaired wire failed: ${said}`);
            return said.includes('wire up') ? true : undefined;
          },
          'the impaired wire',
          10_000,
        );
      },
      async kill(host) {
        const { stdout } = await run('ip', ['netns', 'pids', ns(host)], { encoding: 'utf8' });
        for (const pid of stdout.split('\n').filter(Boolean).map(Number)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {}
        }
      },
      restartGateway: (gateway) => startGatewayOn(gateway),
      async sql(query) {
        const psql = ['psql', '-h', dbAddress, '-p', String(PG_PORT), '-U', 'postgres', '-At'];
        const { stdout } = await run('ip', ['netns', 'exec', ns('db'), ...psql, '-c', query], {
          encoding: 'utf8',
          maxBuffer: 256 * 1024 * 1024,
        });
        return stdout.split('\n').filter(Boolean);
      },
      async teardown() {
        if (torn) return;
        torn = true;
        process.removeListener('exit', destroyAll);
        for (const child of children) child.kill('SIGTERM');
        // Postgres by its own fast shutdown: no shared memory left behind.
        await run('runuser', [
          '-u',
          'postgres',
          '--',
          `${PG_BIN}/pg_ctl`,
          'stop',
          '-D',
          pgData,
          '-m',
          'fast',
          '-w',
        ]).catch(() => {});
        destroyAll();
      },
    };
    return fleet;
  } catch (error) {
    destroyAll();
    process.removeListener('exit', destroyAll);
    throw error;
  }
}
