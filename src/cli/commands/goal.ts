/** goal: whether the goal may be closed (every reason it may not), and closing it. */
import type { Command } from 'commander';
import {
  CloseGoalDocument,
  GoalClosureDocument,
  type GoalClosureReasonFieldsFragment,
} from '../../client/index.ts';
import { collect, examples, run } from '../context.ts';
import { Exit, ExitCode } from '../exit-codes.ts';
import { failureOf } from '../outcomes.ts';

const reasonLine = (r: GoalClosureReasonFieldsFragment) => `  ${r.kind}: ${r.detail}`;

export function goalCommand(program: Command): void {
  const goal = program
    .command('goal')
    .description('the goal: whether it may be closed, closing it');
  goal
    .command('closure')
    .description(
      'whether the goal may be closed and every reason it may not (completing every todo never closes it)',
    )
    .addHelpText(
      'after',
      examples('switchboard goal closure', 'switchboard goal closure --json | jq .closable'),
    )
    .action(
      run(async (ctx) => {
        const goalId = await ctx.goal();
        const { goalClosure: r } = await ctx.client.request(GoalClosureDocument, { goalId });
        await ctx.finish(
          r,
          (r) => {
            if (r.__typename !== 'GoalClosure') return undefined;
            if (r.closure) return `goal ${r.goalId} is closed: ${r.closure.reason}`;
            if (r.closable) return `goal ${r.goalId} may be closed (switchboard goal close)`;
            return [`goal ${r.goalId} may not be closed:`, ...r.reasons.map(reasonLine)].join('\n');
          },
          failureOf(r),
        );
      }),
    );
  goal
    .command('close')
    .description('close the goal (ADMIN/STEWARD): refused with every reason while any holds')
    .option('--ref <ref>', 'acceptance evidence ref (repeatable; at least one)', collect, [])
    .requiredOption('--reason <text>', 'why it is closed')
    .addHelpText(
      'after',
      examples(
        'switchboard goal close --ref ci/acceptance.txt --reason "shipped: acceptance green"',
      ),
    )
    .action(
      run<{ ref: string[]; reason: string }>(async (ctx, o) => {
        const goalId = await ctx.goal();
        const { closeGoal: r } = await ctx.client.request(CloseGoalDocument, {
          input: { goalId, acceptanceRefs: o.ref, reason: o.reason },
        });
        await ctx.finish(
          r,
          (r) =>
            r.__typename === 'GoalClosed'
              ? `goal ${r.closure.goalId} closed (ledger #${r.closure.ledgerSeq}): ${r.closure.reason}`
              : undefined,
          r.__typename === 'GoalClosureRefused'
            ? new Exit(
                ExitCode.REFUSED,
                `refused: goal ${r.goalId} may not be closed: ${r.reasons.map((x) => x.kind).join(', ')}`,
              )
            : failureOf(r),
        );
      }),
    );
}
