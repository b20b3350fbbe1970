/**
 * `switchboard mcp`: the MCP server, acting as the credential it is started with
 * (SWITCHBOARD_URL, SWITCHBOARD_TOKEN, optional SWITCHBOARD_GOAL, or a `switchboard login`
 * profile). Over stdio by default: stdout carries the protocol, everything else goes to stderr.
 * With `--http [HOST:]PORT` it serves Streamable HTTP at /mcp instead (http.ts), each client
 * with its own session and bearer token, until SIGINT or SIGTERM.
 *
 * Its own esbuild entry (dist/cli/mcp.js): the CLI's `mcp` verb imports it at run time, and it
 * reads its flags from process.argv (`[--url U] [--token T] [--goal G] [--profile P] mcp
 * [--tools sets] [--no-channel] [--http [HOST:]PORT [--allow-host names]]`), so it shares no
 * source with src/cli.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_URL } from '../client/index.ts';
import { readProfiles } from '../client/profiles.ts';
import { type Connection, McpContext } from './context.ts';
import { plainErrors } from './errors.ts';
import { serveHttp } from './http.ts';
import { createMcpServer, parseToolsets } from './server.ts';
import { LineTransport } from './stdio.ts';

export interface McpOptions {
  tools?: string;
  url?: string;
  token?: string;
  goal?: string;
  profile?: string;
  /** `[HOST:]PORT` to serve Streamable HTTP on; absent: stdio. */
  http?: string;
  /** Comma-separated host names a Host or Origin header may name besides loopback ones. */
  allowHost?: string;
  /** false: no channel capability, no pushes (`--no-channel`). */
  channel?: boolean;
}

export function resolveConnection(options: McpOptions, env = process.env): Connection {
  const file = readProfiles(env);
  const name = options.profile ?? env.SWITCHBOARD_PROFILE ?? file.current;
  const profile = (name !== undefined && file.profiles[name]) || {};
  return {
    url: options.url ?? env.SWITCHBOARD_URL ?? profile.url ?? DEFAULT_URL,
    token: options.token ?? (env.SWITCHBOARD_TOKEN || undefined) ?? profile.token,
    goal: options.goal ?? (env.SWITCHBOARD_GOAL || undefined) ?? profile.goal,
  };
}

const log = (line: string) => process.stderr.write(`switchboard mcp: ${line}\n`);

/** `4100` → 127.0.0.1:4100; `0.0.0.0:4100`, `[::1]:4100` as given. */
export function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || port > 65535)
    throw new Error(`--http takes [HOST:]PORT (e.g. 4100 or 127.0.0.1:4100), not ${value}`);
  return { host: (match[1] ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1'), port };
}

/** Serves over stdio until stdin closes; resolves then. */
async function runStdio(options: McpOptions): Promise<void> {
  const toolsets = parseToolsets(options.tools);
  const connection = resolveConnection(options);
  const ctx = new McpContext(connection, log);
  if (!connection.token) ctx.log('no token: set SWITCHBOARD_TOKEN (every tool will fail)');
  const session = createMcpServer(ctx, toolsets, { channel: options.channel });
  const { server } = session;
  const transport = plainErrors(new LineTransport());
  // A line it could not serve (answered with a JSON-RPC error), or a failure of the protocol.
  server.server.onerror = (error) => ctx.log(error.message);
  server.server.oninitialized = () => session.channel?.start();
  const closed = new Promise<void>((resolve) => {
    let done = false;
    const close = () => {
      if (done) return;
      done = true;
      session.stop();
      void server.close().finally(resolve);
    };
    transport.onclose = close;
    process.stdin.once('end', close);
    process.stdin.once('close', close);
  });
  await server.connect(transport);
  ctx.log(`serving ${toolsets.join(',')} for ${connection.url} over stdio`);
  await closed;
}

/** Serves over HTTP until SIGINT or SIGTERM; resolves then. */
async function runHttp(options: McpOptions & { http: string }): Promise<void> {
  const toolsets = parseToolsets(options.tools);
  const connection = resolveConnection(options);
  const served = await serveHttp({
    ...parseListen(options.http),
    connection,
    toolsets,
    channel: options.channel,
    allowedHosts: options.allowHost
      ?.split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    log,
  });
  log(`serving ${toolsets.join(',')} for ${connection.url} over HTTP at ${served.url}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await served.close();
}

export function runMcp(options: McpOptions): Promise<void> {
  return options.http === undefined
    ? runStdio(options)
    : runHttp({ ...options, http: options.http });
}

/** The flags of `switchboard [global flags] mcp [--tools sets] [--http …]`. */
export function parseFlags(argv: string[]): McpOptions {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      goal: { type: 'string' },
      profile: { type: 'string' },
      tools: { type: 'string' },
      http: { type: 'string' },
      'allow-host': { type: 'string' },
      'no-channel': { type: 'boolean' },
    },
  });
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  if (values.http === true) throw new Error('--http takes [HOST:]PORT (e.g. 4100)');
  return {
    url: text(values.url),
    token: text(values.token),
    goal: text(values.goal),
    profile: text(values.profile),
    tools: text(values.tools),
    http: text(values.http),
    allowHost: text(values['allow-host']),
    channel: values['no-channel'] !== true,
  };
}

// A stray rejection (a notification to a closed peer) must not end the server.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(`switchboard mcp: unhandled: ${String(reason)}\n`);
});

try {
  await runMcp(parseFlags(process.argv.slice(2)));
  // The protocol is over: streams and sockets may still be closing, the process need not wait.
  process.exit(0);
} catch (error) {
  process.stderr.write(
    `switchboard mcp: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(2);
}
