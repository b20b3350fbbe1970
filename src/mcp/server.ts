/**
 * The MCP server of one session: toolsets chosen at start, the resources and their completions,
 * the replan prompt, and the channel that pushes events into a live Claude Code session.
 * Transport-free, so the stdio entry, the HTTP entry and the budget script build the same server.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CHANNEL_CAPABILITY, CHANNEL_INSTRUCTIONS, Channel } from './channel.ts';
import { registerCompletion } from './completion.ts';
import type { McpContext } from './context.ts';
import { invalidParams } from './errors.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { toolsOf } from './tool.ts';
import { adminTools } from './tools/admin.ts';
import { coreTools } from './tools/core.ts';
import { evidenceLogTool, ledgerTools } from './tools/ledger.ts';
import { workTools } from './tools/work.ts';

declare const SWITCHBOARD_VERSION: string;

export const TOOLSETS = {
  core: (server: McpServer, ctx: McpContext) => {
    coreTools(server, ctx);
    evidenceLogTool(server, ctx);
  },
  work: workTools,
  ledger: ledgerTools,
  admin: adminTools,
} as const;
export type Toolset = keyof typeof TOOLSETS;
export const DEFAULT_TOOLSETS: readonly Toolset[] = ['core'];

/** `core,work` → the sets; `all` → every set. Throws on an unknown name. */
export function parseToolsets(value: string | undefined): Toolset[] {
  if (!value) return [...DEFAULT_TOOLSETS];
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.includes('all')) return Object.keys(TOOLSETS) as Toolset[];
  const unknown = names.filter((name) => !(name in TOOLSETS));
  if (unknown.length || names.length === 0)
    throw new Error(
      `unknown toolset ${unknown.join(', ') || '(none)'}: choose from ${Object.keys(TOOLSETS).join(', ')}, all`,
    );
  return [...new Set(names)] as Toolset[];
}

export interface McpSession {
  server: McpServer;
  /**
   * Pushes into the live session; started by the transport once the client can receive.
   * Absent when the server was started with `--no-channel`.
   */
  channel: Channel | undefined;
  /** Stops every stream the session follows. */
  stop(): void;
}

export interface McpServerOptions {
  /** Declare the Claude Code channel capability and push (default true). */
  channel?: boolean;
}

const INSTRUCTIONS =
  'Switchboard coordinates you with peer agents on one goal. Expected outcomes (refusals, scope gaps, timeouts) are ordinary results whose `type` names them; isError means bad arguments or no gateway.';

export function createMcpServer(
  ctx: McpContext,
  toolsets: readonly Toolset[],
  options: McpServerOptions = {},
): McpSession {
  const pushes = options.channel ?? true;
  const server = new McpServer(
    {
      name: 'switchboard',
      version: typeof SWITCHBOARD_VERSION === 'string' ? SWITCHBOARD_VERSION : 'dev',
    },
    pushes
      ? {
          capabilities: { logging: {}, experimental: CHANNEL_CAPABILITY },
          instructions: `${INSTRUCTIONS} ${CHANNEL_INSTRUCTIONS}`,
        }
      : { capabilities: { logging: {} }, instructions: INSTRUCTIONS },
  );
  for (const name of toolsets) TOOLSETS[name](server, ctx);
  const tools = toolsOf(server);
  server.server.registerCapabilities({ tools: {} });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map((tool) => tool.listing),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, ({ params }, extra) => {
    const tool = tools.get(params.name);
    if (!tool) throw invalidParams(`Unknown tool: ${params.name}`);
    return tool.call(params.arguments, extra);
  });
  const stopResources = registerResources(server, ctx);
  registerPrompts(server, ctx);
  registerCompletion(server, ctx);
  const channel = pushes ? new Channel(server.server, ctx) : undefined;
  return {
    server,
    channel,
    stop() {
      stopResources();
      channel?.stop();
    },
  };
}
