/** frontier: every live todo, whether it is runnable for an agent, and the guards holding it. */
import { type Command, Option } from 'commander';
import { FrontierDocument } from '../../client/index.ts';
import { examples, int, run } from '../context.ts';
import { failureOf } from '../outcomes.ts';
import { dim, table, warn } from '../output.ts';

export function frontierCommand(program: Command): void {
  program
    .command('frontier')
    .description(
      'every live todo with `runnable` and the guards holding it back for an agent (--runnable: your ready work)',
    )
    .option('--agent <id>', 'the agent (a PEER: itself by default)')
    .option('--runnable', 'only the runnable rows (the counts stay of the whole frontier)')
    .addOption(
      new Option('--held', 'only the held rows, each with every guard').conflicts('runnable'),
    )
    .option('--limit <n>', 'at most this many rows (0-5000; default: every row)', int)
    .addHelpText(
      'after',
      examples(
        'switchboard frontier',
        'switchboard frontier --runnable --limit 10',
        'switchboard frontier --held --json | jq ".rows[].guards"',
      ),
    )
    .action(
      run<{ agent?: string; runnable?: boolean; held?: boolean; limit?: number }>(
        async (ctx, o) => {
          const goalId = await ctx.goal();
          const { frontier } = await ctx.client.request(FrontierDocument, {
            goalId,
            agentId: o.agent,
            runnable: o.runnable ? true : o.held ? false : undefined,
            limit: o.limit,
          });
          await ctx.finish(
            frontier,
            async (frontier) => {
              if (frontier.__typename !== 'Frontier') return undefined;
              const lines = [
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
                  `${frontier.runnableCount} runnable of ${frontier.rowCount} for ${frontier.agentId}`,
                ),
              ];
              if (frontier.omittedRowCount > 0) {
                lines.push(
                  warn(
                    `showing ${frontier.rows.length}: ${frontier.omittedRowCount} more rows left out by --runnable, --held or --limit`,
                  ),
                );
              }
              return lines.join('\n');
            },
            failureOf(frontier),
          );
        },
      ),
    );
}
