/** frontier: every live todo, whether it is runnable for an agent, and the guards holding it. */
import type { Command } from 'commander';
import { FrontierDocument } from '../../client/index.ts';
import { examples, run } from '../context.ts';
import { failureOf } from '../outcomes.ts';
import { dim, table } from '../output.ts';

export function frontierCommand(program: Command): void {
  program
    .command('frontier')
    .description('every live todo with `runnable` and the guards holding it back for an agent')
    .option('--agent <id>', 'the agent (a PEER: itself by default)')
    .addHelpText(
      'after',
      examples(
        'switchboard frontier',
        'switchboard frontier --json | jq ".rows[] | select(.runnable)"',
      ),
    )
    .action(
      run<{ agent?: string }>(async (ctx, o) => {
        const goalId = await ctx.goal();
        const { frontier } = await ctx.client.request(FrontierDocument, {
          goalId,
          agentId: o.agent,
        });
        await ctx.finish(
          frontier,
          async (frontier) => {
            if (frontier.__typename !== 'Frontier') return undefined;
            return [
              await table(
                ['todo', 'runnable', 'status', 'priority', 'guards', 'title'],
                frontier.rows.map((r) => [
                  r.todo.id,
                  r.runnable ? 'yes' : dim('no'),
                  r.todo.status,
                  r.todo.priority,
                  r.guards.map((g) => `${g.kind}: ${g.detail}`).join('; ') || null,
                  r.todo.title,
                ]),
              ),
              dim(
                `${frontier.runnableCount} runnable of ${frontier.rows.length} for ${frontier.agentId}`,
              ),
            ].join('\n');
          },
          failureOf(frontier),
        );
      }),
    );
}
