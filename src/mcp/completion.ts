/**
 * `completion/complete`: the values an argument can take, from the gateway, as this server's
 * credential sees them — todo ids of the goal (the replan prompt's `todo`), goal ids in scope
 * (`switchboard://goals/{goal}/directory`) and the goal's agent ids
 * (`switchboard://agents/{agent}/ledger`). Values that start with what was typed (any case)
 * come first, then those that contain it; at most 100, with the total. An unknown prompt or
 * template is -32602; an argument without values completes to none.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CompleteRequestSchema,
  type CompleteResult,
  ErrorCode,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { AgentsDocument, GoalsDocument, TodosDocument } from '../client/index.ts';
import type { McpContext } from './context.ts';
import { invalidParams } from './errors.ts';
import { REPLAN_PROMPT } from './prompts.ts';
import { AGENT_LEDGER, GOAL_DIRECTORY } from './resources.ts';

/** The specification's bound on one answer. */
const MAX_VALUES = 100;

const goalIds = async (ctx: McpContext) =>
  (await ctx.client.request(GoalsDocument)).goals.map((g) => g.id);

const agentIds = async (ctx: McpContext) =>
  (await ctx.client.request(AgentsDocument, { goalId: await ctx.goal() })).agents.rows.map(
    (a) => a.agentId,
  );

const todoIds = async (ctx: McpContext) =>
  (await ctx.client.request(TodosDocument, { goalId: await ctx.goal() })).todos.rows.map(
    (t) => t.id,
  );

/** The values for a reference's argument: undefined when the reference names nothing here. */
function source(
  ref: { type: string; name?: string; uri?: string },
  argument: string,
): ((ctx: McpContext) => Promise<string[]>) | undefined | null {
  if (ref.type === 'ref/prompt') {
    if (ref.name !== REPLAN_PROMPT) return undefined;
    return argument === 'todo' ? todoIds : null;
  }
  if (ref.uri === GOAL_DIRECTORY.toString()) return argument === 'goal' ? goalIds : null;
  if (ref.uri === AGENT_LEDGER.toString()) return argument === 'agent' ? agentIds : null;
  return undefined;
}

function ranked(values: string[], typed: string): CompleteResult['completion'] {
  const needle = typed.toLowerCase();
  const starts = values.filter((v) => v.toLowerCase().startsWith(needle));
  const contains = values.filter(
    (v) => !v.toLowerCase().startsWith(needle) && v.toLowerCase().includes(needle),
  );
  const matches = [...starts, ...contains];
  return {
    values: matches.slice(0, MAX_VALUES),
    total: matches.length,
    hasMore: matches.length > MAX_VALUES,
  };
}

export function registerCompletion(server: McpServer, ctx: McpContext): void {
  server.server.registerCapabilities({ completions: {} });
  server.server.setRequestHandler(CompleteRequestSchema, async ({ params }) => {
    const values = source(params.ref, params.argument.name);
    if (values === undefined)
      throw invalidParams(
        params.ref.type === 'ref/prompt'
          ? `no prompt ${params.ref.name}`
          : `no resource template ${params.ref.uri}`,
      );
    if (values === null) return { completion: { values: [], total: 0, hasMore: false } };
    let all: string[];
    try {
      all = await values(ctx);
    } catch (error) {
      throw new McpError(ErrorCode.InternalError, ctx.explain(error));
    }
    return { completion: ranked(all, params.argument.value) };
  });
}
