/**
 * The MCP server: toolsets chosen at start, the inbox and directory resources, the replan
 * prompt. Transport-free, so the stdio entry and the budget script build the same server.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpContext } from './context.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { adminTools } from './tools/admin.ts';
import { coreTools } from './tools/core.ts';
import { ledgerTools } from './tools/ledger.ts';
import { workTools } from './tools/work.ts';

declare const SWITCHBOARD_VERSION: string;

export const TOOLSETS = {
  core: coreTools,
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

export function createMcpServer(ctx: McpContext, toolsets: readonly Toolset[]) {
  const server = new McpServer(
    {
      name: 'switchboard',
      version: typeof SWITCHBOARD_VERSION === 'string' ? SWITCHBOARD_VERSION : 'dev',
    },
    {
      capabilities: { logging: {} },
      instructions:
        'Switchboard coordinates you with peer agents on one goal. Expected outcomes (refusals, scope gaps, timeouts) are ordinary results whose `type` names them; isError means bad arguments or no gateway.',
    },
  );
  for (const name of toolsets) TOOLSETS[name](server, ctx);
  const stopStreams = registerResources(server, ctx);
  registerPrompts(server, ctx);
  return { server, stopStreams };
}
