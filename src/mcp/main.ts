/**
 * `switchboard mcp`: the MCP server over stdio, acting as the credential it is started with
 * (SWITCHBOARD_URL, SWITCHBOARD_TOKEN, optional SWITCHBOARD_GOAL, or a `switchboard login`
 * profile). stdout carries the protocol; everything else goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DEFAULT_URL } from '../client/index.ts';
import { readProfiles } from '../client/profiles.ts';
import { type Connection, McpContext } from './context.ts';
import { createMcpServer, parseToolsets } from './server.ts';

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
  const transport = new StdioServerTransport();
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
