/** pr merged: records a merged pull request, which satisfies `pr_merged:` resume conditions. */
import type { Command } from 'commander';
import { RecordExternalEventDocument } from '../../client/index.ts';
import { examples, run } from '../context.ts';
import { usage } from '../exit-codes.ts';
import { failureOf } from '../outcomes.ts';
import { dim } from '../output.ts';

export function prCommand(program: Command): void {
  program
    .command('pr')
    .description('pull requests: record one merged')
    .command('merged <repository> <number>')
    .description(
      'record that a pull request was merged (once: the same fact again changes nothing); todos deferred on pr_merged:<repo>#<n> may then resume',
    )
    .option('--observed-at <time>', 'when you saw it merged, ISO 8601 [default: now]')
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText(
      'after',
      examples(
        'switchboard pr merged git:github.com/acme/web 42',
        'switchboard pr merged https://github.com/acme/web 42 --observed-at 2026-05-01T10:00:00Z',
      ),
    )
    .action(
      run<{ observedAt?: string; agent?: string }, [string, string]>(
        async (ctx, o, repository, number) => {
          const observedAt = o.observedAt ?? new Date().toISOString();
          if (Number.isNaN(Date.parse(observedAt)))
            throw usage(`--observed-at ${observedAt} is not an ISO 8601 time`);
          const { recordExternalEvent: r } = await ctx.client.request(RecordExternalEventDocument, {
            input: {
              goalId: await ctx.goal(),
              kind: 'PR_MERGED',
              repository,
              ref: number,
              observedAt,
              agentId: o.agent,
            },
          });
          await ctx.finish(
            r,
            (r) =>
              r.__typename === 'ExternalEvent'
                ? `${r.fact.repository}#${r.fact.ref} merged${r.replayed ? dim(' (recorded before: nothing written)') : ''}${r.waitingTodoIds.length ? `; its condition now holds for ${r.waitingTodoIds.join(', ')}` : ''}`
                : undefined,
            failureOf(r),
          );
        },
      ),
    );
}
