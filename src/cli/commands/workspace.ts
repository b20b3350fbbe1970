/** workspace: where an agent runs (repository, worktree, revision), read by the WORKSPACE guard. */
import { type Command, Option } from 'commander';
import { DeclareWorkspaceDocument, WorktreeKind } from '../../client/index.ts';
import { enumArg, examples, run } from '../context.ts';
import { failureOf } from '../outcomes.ts';

export function workspaceCommand(program: Command): void {
  const workspace = program
    .command('workspace')
    .description('where you run: declare the repository, worktree kind and revision');
  workspace
    .command('declare')
    .description(
      'declare your workspace (read by the WORKSPACE guard; a declaration, not a permission)',
    )
    .requiredOption(
      '--repository <repo>',
      'git:host/owner/repo, or an https / git@ URL without credentials',
    )
    .addOption(
      new Option('--worktree <kind>', 'linked (a worktree of your own) or canonical')
        .argParser(enumArg(Object.values(WorktreeKind)))
        .makeOptionMandatory(),
    )
    .requiredOption('--revision <sha>', 'the commit checked out (git rev-parse HEAD)')
    .option('--agent <id>', 'declare for this agent (ADMIN/STEWARD)')
    .addHelpText(
      'after',
      examples(
        'switchboard workspace declare --repository git:github.com/acme/app --worktree linked --revision "$(git rev-parse HEAD)"',
      ),
    )
    .action(
      run<{ repository: string; worktree: string; revision: string; agent?: string }>(
        async (ctx, o) => {
          const goalId = await ctx.goal();
          const { declareWorkspace: r } = await ctx.client.request(DeclareWorkspaceDocument, {
            input: {
              goalId,
              agentId: o.agent,
              repository: o.repository,
              worktree: o.worktree as WorktreeKind,
              revision: o.revision,
            },
          });
          await ctx.finish(
            r,
            (r) =>
              r.__typename === 'AgentWorkspace'
                ? `${r.agentId} runs in ${r.workspace.repository} (${r.workspace.worktree.toLowerCase()} worktree at ${r.workspace.revision})`
                : undefined,
            failureOf(r),
          );
        },
      ),
    );
}
