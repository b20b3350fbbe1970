/** gate: decision gates, asked for on a scope (open) and decided by ADMIN or STEWARD (resolve). */
import type { Command } from 'commander';
import {
  GateDecision,
  type GateFieldsFragment,
  GateGranularity,
  GateKind,
  GatesDocument,
  OpenGateDocument,
  ResolveGateDocument,
} from '../../client/index.ts';
import { enumArg, examples, run } from '../context.ts';
import { failureOf, scopeGapOf } from '../outcomes.ts';
import { ago, bold, dim, table } from '../output.ts';

const gateText = (g: GateFieldsFragment) =>
  `${bold(g.id)} ${g.state}${g.decision ? `/${g.decision}` : ''} ${g.scope}: ${g.reason}`;

export function gateCommand(program: Command): void {
  const gate = program.command('gate').description('decision gates: list, open, resolve');
  gate
    .command('list')
    .description("the goal's gates with their state now")
    .addHelpText('after', examples('switchboard gate list'))
    .action(
      run(async (ctx) => {
        const goalId = await ctx.goal();
        const { gates } = await ctx.client.request(GatesDocument, { goalId });
        await ctx.finish(
          gates,
          async (gates) =>
            gates.rows.length === 0
              ? dim('no gates')
              : table(
                  ['id', 'state', 'scope', 'reason', 'opened', 'expires'],
                  gates.rows.map((g) => [
                    g.id,
                    `${g.state}${g.decision ? `/${g.decision}` : ''}`,
                    g.scope,
                    g.reason,
                    ago(g.openedAt),
                    g.expiresAt ? ago(g.expiresAt) : null,
                  ]),
                ),
          scopeGapOf(gates),
        );
      }),
    );
  gate
    .command('open')
    .description('open a gate: ask for a decision on a scope')
    .requiredOption(
      '--kind <kind>',
      Object.values(GateKind).join(', ').toLowerCase(),
      enumArg(Object.values(GateKind)),
    )
    .requiredOption(
      '--granularity <g>',
      'action, lane, goal, project, global',
      enumArg(Object.values(GateGranularity)),
    )
    .requiredOption('--key <scopeKey>', 'scope key (lane/action)')
    .requiredOption('--reason <text>', 'the question')
    .option('--expires <time>', 'ISO time after which it covers nothing')
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText(
      'after',
      examples(
        'switchboard gate open --kind production --granularity lane --key deploy --reason "ship v2?"',
      ),
    )
    .action(
      run<{
        kind: string;
        granularity: string;
        key: string;
        reason: string;
        expires?: string;
        agent?: string;
      }>(async (ctx, o) => {
        const goalId = await ctx.goal();
        const { openGate } = await ctx.client.request(OpenGateDocument, {
          input: {
            goalId,
            kind: o.kind as GateKind,
            granularity: o.granularity as GateGranularity,
            scopeKey: o.key,
            reason: o.reason,
            expiresAt: o.expires,
            agentId: o.agent,
          },
        });
        await ctx.finish(
          openGate,
          (openGate) => (openGate.__typename === 'Gate' ? gateText(openGate) : undefined),
          failureOf(openGate),
        );
      }),
    );
  gate
    .command('resolve <id>')
    .description('decide a gate (ADMIN or STEWARD only)')
    .requiredOption('--decision <d>', 'granted or denied', enumArg(Object.values(GateDecision)))
    .option('--note <text>', 'a note')
    .addHelpText('after', examples('switchboard gate resolve g-1 --decision granted --note "go"'))
    .action(
      run<{ decision: string; note?: string }, [string]>(async (ctx, o, id) => {
        const goalId = await ctx.goal();
        const { resolveGate: r } = await ctx.client.request(ResolveGateDocument, {
          input: { goalId, gateId: id, decision: o.decision as GateDecision, note: o.note },
        });
        await ctx.finish(
          r,
          (r) => (r.__typename === 'Gate' ? gateText(r) : undefined),
          failureOf(r),
        );
      }),
    );
}
