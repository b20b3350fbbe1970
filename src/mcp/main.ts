/**
 * `switchboard mcp`: the MCP server over stdio, acting as the credential it is started with
 * (SWITCHBOARD_URL, SWITCHBOARD_TOKEN, optional SWITCHBOARD_GOAL, or a `switchboard login`
 * profile). stdout carries the protocol; everything else goes to stderr.
 *
 * Its own esbuild entry (dist/cli/mcp.js): the CLI's `mcp` verb imports it at run time, and it
 * reads its flags from process.argv (`[--url U] [--token T] [--goal G] [--profile P] mcp
 * [--tools sets]`), so it shares no source with src/cli.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_URL } from '../client/index.ts';
import { readProfiles } from '../client/profiles.ts';
import { type Connection, McpContext } from './context.ts';
import { createMcpServer, parseToolsets } from './server.ts';
import { LineTransport } from './stdio.ts';

export interface McpOptions {
  tools?: string;
  url?: string;
  token?: string;
  goal?: string;
  profile?: string;
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

/** Serves until stdin closes; resolves then. */
export async function runMcp(options: McpOptions): Promise<void> {
  const toolsets = parseToolsets(options.tools);
  const connection = resolveConnection(options);
  const ctx = new McpContext(connection);
  if (!connection.token) ctx.log('no token: set SWITCHBOARD_TOKEN (every tool will fail)');
  const { server, stopStreams } = createMcpServer(ctx, toolsets);
  const transport = new LineTransport();
  // A line it could not serve (answered with a JSON-RPC error), or a failure of the protocol.
  server.server.onerror = (error) => ctx.log(error.message);
  const closed = new Promise<void>((resolve) => {
    let done = false;
    const close = () => {
      if (done) return;
      done = true;
      stopStreams();
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

/** The flags of `switchboard [global flags] mcp [--tools sets]`. */
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
    },
  });
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    url: text(values.url),
    token: text(values.token),
    goal: text(values.goal),
    profile: text(values.profile),
    tools: text(values.tools),
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
