/** vision: each agent's vision in the goal (role scope, vision, acceptance, replan trigger). */
import type { Command } from 'commander';
import { SetVisionDocument, VisionsDocument } from '../../client/index.ts';
import { examples, run } from '../context.ts';
import { failureOf, scopeGapOf } from '../outcomes.ts';
import { ago, dim, table } from '../output.ts';

export function visionCommand(program: Command): void {
  const vision = program.command('vision').description('per-agent vision: show, set');
  vision
    .command('show')
    .description("every agent's vision in the goal (or one with --agent)")
    .option('--agent <id>', 'only this agent')
    .addHelpText('after', examples('switchboard vision show --agent builder'))
    .action(
      run<{ agent?: string }>(async (ctx, o) => {
        const goalId = await ctx.goal();
        const { visions } = await ctx.client.request(VisionsDocument, { goalId });
        const rows = o.agent ? visions.rows.filter((v) => v.agentId === o.agent) : visions.rows;
        await ctx.finish(
          o.agent ? { ...visions, rows } : visions,
          async ({ rows }) =>
            rows.length === 0
              ? dim('no vision set')
              : table(
                  ['agent', 'role scope', 'vision', 'acceptance', 'replan trigger', 'updated'],
                  rows.map((v) => [
                    v.agentId,
                    v.roleScope,
                    v.visionSummary,
                    v.acceptanceSummary,
                    v.replanTriggerSummary,
                    ago(v.updatedAt),
                  ]),
                ),
          scopeGapOf(visions),
        );
      }),
    );
  vision
    .command('set')
    .description('replace your vision in the goal (one row per agent)')
    .requiredOption(
      '--role-scope <text>',
      'relative path prefixes of your lane, e.g. "src/cli test"',
    )
    .requiredOption('--vision <text>', 'vision summary')
    .requiredOption('--acceptance <text>', 'acceptance summary')
    .requiredOption('--replan-trigger <text>', 'what makes you replan')
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText(
      'after',
      examples(
        'switchboard vision set --role-scope src/cli --vision "ship the CLI" --acceptance "tests green" --replan-trigger "schema change"',
      ),
    )
    .action(
      run<{
        roleScope: string;
        vision: string;
        acceptance: string;
        replanTrigger: string;
        agent?: string;
      }>(async (ctx, o) => {
        const goalId = await ctx.goal();
        const { setVision: r } = await ctx.client.request(SetVisionDocument, {
          input: {
            goalId,
            roleScope: o.roleScope,
            visionSummary: o.vision,
            acceptanceSummary: o.acceptance,
            replanTriggerSummary: o.replanTrigger,
            agentId: o.agent,
          },
        });
        await ctx.finish(
          r,
          (r) => (r.__typename === 'Vision' ? `vision of ${r.agentId} set` : undefined),
          failureOf(r),
        );
      }),
    );
}
