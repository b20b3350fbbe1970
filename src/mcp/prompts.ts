/**
 * The replan prompt: reads the agent's evidence ledger and asks for exactly one of the bounded
 * write-backs the ledger contract names, citing the digest it read.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { EvidenceLedgerDocument } from '../client/index.ts';
import type { McpContext } from './context.ts';

export const REPLAN_PROMPT = 'replan';

export function registerPrompts(server: McpServer, ctx: McpContext): void {
  server.registerPrompt(
    REPLAN_PROMPT,
    {
      title: 'Replan from your evidence ledger',
      description:
        'Reads your evidence ledger (optionally one todo) and asks for one bounded write-back: a replan checkpoint citing its digest, a successor, a blocker, or a no-follow-up rationale.',
      argsSchema: { todo: z.string().optional().describe('a todo id (completes)') },
    },
    async ({ todo }) => {
      const goalId = await ctx.goal();
      const agentId = await ctx.agent();
      const { evidenceLedger: p } = await ctx.client.request(EvidenceLedgerDocument, {
        goalId,
        agentId,
        todoId: todo,
        limit: 30,
      });
      const rows = p.events.map(
        (e) =>
          `- ${e.seq} ${e.eventKind}${e.status ? `/${e.status}` : ''}${e.todoId ? ` ${e.todoId}` : ''}${e.material ? ' (material)' : ''}: ${e.summary.split('\n')[0]}`,
      );
      const others = p.otherAgentFrontier.map(
        (o) => `- ${o.agentId}: ${o.topTodo ?? 'no top todo'} (${o.handoffState})`,
      );
      const owed = p.readerHints.nextRequiredReads.map((r) => `- ${r.reason}`);
      const text = [
        `You are agent ${agentId} in goal ${goalId}. Replan from your evidence ledger${todo ? ` for todo ${todo}` : ''}.`,
        '',
        `Ledger digest: ${p.digest}`,
        p.scopeGap ? `Scope gap: ${p.scopeGap.reason}` : '',
        '',
        'Your rows (oldest first):',
        ...(rows.length ? rows : ['- none']),
        ...(others.length ? ['', 'Other agents (compressed):', ...others] : []),
        ...(owed.length
          ? [
              '',
              `Reads still owed before ${p.readerHints.requiredBefore.join('/')} (do them with evidence_log, then use the new digest):`,
              ...owed,
            ]
          : []),
        '',
        'Write back exactly one of these, then stop:',
        `1. replan_checkpoint with digest "${p.digest}" and kind PRESERVED (the plan holds), PATCHED (the changed vision fields; a first vision needs role_scope, vision, acceptance and replan_trigger), SUPERSEDED or RETIRED, with a one-line summary of why.`,
        '2. complete_todo with evidence and successor_title, when the next step is a new todo.',
        '3. record_event kind BLOCKER, when you cannot go on without someone else.',
        '4. close_no_follow_up with the rationale, when the todo needs nothing more.',
        'A checkpoint that cites another digest is refused (LedgerDigestMismatch): read again first.',
      ]
        .filter((line, i, all) => line !== '' || all[i - 1] !== '')
        .join('\n');
      return {
        description: `replan for ${agentId} at digest ${p.digest}`,
        messages: [{ role: 'user', content: { type: 'text', text } }],
      };
    },
  );
}
