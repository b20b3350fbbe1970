/**
 * The ledger's tools: your scoped evidence ledger (evidence_log, in the default set), and the
 * ledger toolset: recording rows, replan checkpoints and what you owe.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  EvidenceLedgerDocument,
  RecordEventDocument,
  RecordReplanCheckpointDocument,
  ReplanKind,
  ReplanObligationsDocument,
  recordableEventKinds,
} from '../../client/index.ts';
import type { McpContext } from '../context.ts';
import { answer, registerTool, typeOf } from '../tool.ts';

/** The read the ledger contract requires before every replan: in the default toolset. */
export function evidenceLogTool(server: McpServer, ctx: McpContext): void {
  registerTool(server, ctx, 'evidence_log', {
    description:
      'Your evidence ledger, oldest first: your rows in detail, others compressed. `digest` is what replan_checkpoint cites; `readerHints.nextRequiredReads`: reads owed.',
    input: {
      todo: z.string().optional(),
      limit: z.number().int().min(1).max(200).default(30),
      before: z.string().optional().describe('page.olderCursor of a previous read'),
    },
    types: ['EvidenceLedger', 'ScopeGap'],
    readOnly: true,
    async run({ todo, limit, before }) {
      const { evidenceLedger: p } = await ctx.client.request(EvidenceLedgerDocument, {
        goalId: await ctx.goal(),
        agentId: await ctx.agent(),
        todoId: todo,
        limit,
        before,
      });
      const lines = p.events.map(
        (e) =>
          `${e.seq} ${e.eventKind}${e.status ? `/${e.status}` : ''}${e.todoId ? ` ${e.todoId}` : ''}: ${e.summary.split('\n')[0]}`,
      );
      for (const read of p.readerHints.nextRequiredReads)
        lines.push(`owed before ${p.readerHints.requiredBefore.join('/')}: ${read.reason}`);
      lines.push(`digest ${p.digest}`);
      return answer(typeOf(p, 'EvidenceLedger'), lines.join('\n'), p);
    },
  });
}

export function ledgerTools(server: McpServer, ctx: McpContext): void {
  registerTool(server, ctx, 'record_event', {
    description:
      'Append an evidence row: short summary, relative refs (credentials and absolute paths are redacted). HANDOFF needs `related_agent`.',
    input: {
      kind: z.enum(recordableEventKinds),
      summary: z.string().min(1),
      todo: z.string().optional(),
      status: z.string().optional(),
      evidence: z.array(z.string()).max(20).optional(),
      related_agent: z.string().optional(),
    },
    types: ['LedgerEvent', 'UnknownAgent', 'UnknownTodo', 'ScopeGap'],
    async run({ kind, summary, todo, status, evidence, related_agent }) {
      const { recordEvent: r } = await ctx.client.request(RecordEventDocument, {
        input: {
          goalId: await ctx.goal(),
          eventKind: kind,
          summary,
          todoId: todo,
          status,
          evidenceRefs: evidence,
          relatedAgentId: related_agent,
        },
      });
      if (r.__typename === 'LedgerEvent')
        return answer(
          'LedgerEvent',
          `recorded ${r.eventKind} seq ${r.seq}${r.boundary.redactionCount ? ` (${r.boundary.redactionCount} redactions)` : ''}`,
          r,
        );
      return answer(r.__typename, r.__typename, r);
    },
  });

  registerTool(server, ctx, 'replan_checkpoint', {
    description:
      'Record a replan checkpoint citing the `digest` of your latest evidence_log read (LedgerDigestMismatch: read again). PATCHED replaces your vision with the given fields.',
    input: {
      digest: z.string(),
      kind: z.enum(ReplanKind),
      summary: z.string().min(1),
      role_scope: z.string().optional(),
      vision: z.string().optional(),
      acceptance: z.string().optional(),
      replan_trigger: z.string().optional(),
      evidence: z.array(z.string()).max(20).optional(),
    },
    types: ['ReplanCheckpoint', 'LedgerDigestMismatch', 'UnknownAgent', 'ScopeGap'],
    async run(args) {
      const { recordReplanCheckpoint: r } = await ctx.client.request(
        RecordReplanCheckpointDocument,
        {
          goalId: await ctx.goal(),
          agentId: await ctx.agent(),
          digest: args.digest,
          kind: args.kind,
          delta: {
            summary: args.summary,
            roleScope: args.role_scope,
            visionSummary: args.vision,
            acceptanceSummary: args.acceptance,
            replanTriggerSummary: args.replan_trigger,
            evidenceRefs: args.evidence,
          },
        },
      );
      if (r.__typename === 'ReplanCheckpoint')
        return answer(
          'ReplanCheckpoint',
          `checkpoint ${args.kind} recorded (seq ${r.event.seq})`,
          r,
        );
      if (r.__typename === 'LedgerDigestMismatch')
        return answer(
          'LedgerDigestMismatch',
          `LedgerDigestMismatch: ${r.requiredRead.reason}; read evidence_log again and cite its digest}`,
          r,
        );
      return answer(r.__typename, r.__typename, r);
    },
  });

  registerTool(server, ctx, 'replan_owed', {
    description: 'What you owe a replan checkpoint for, and the reads to make first.',
    input: {},
    types: ['ReplanObligations', 'ScopeGap'],
    readOnly: true,
    async run() {
      const { replanObligations: r } = await ctx.client.request(ReplanObligationsDocument, {
        goalId: await ctx.goal(),
        agentId: await ctx.agent(),
      });
      if (r.__typename !== 'ReplanObligations') return answer(r.__typename, r.__typename, r);
      const text = r.owed
        ? [
            ...r.obligations.map((o) => `${o.kind}: ${o.detail}`),
            ...r.requiredReads.map((read) => `read first: ${read.query}`),
          ].join('\n')
        : 'nothing owed';
      return answer('ReplanObligations', text, r);
    },
  });
}
