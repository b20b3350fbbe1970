/** todo: the goal's todos, from creation to completion, supersession, deferral and handoff. */
import type { Command } from 'commander';
import {
  ClaimTodoDocument,
  CloseNoFollowUpDocument,
  CompleteTodoDocument,
  CreateTodoDocument,
  DeferTodoDocument,
  HandoffDocument,
  type HandoffPacketFieldsFragment,
  HandoffTodoDocument,
  ReleaseClaimDocument,
  ResumeTodoDocument,
  SetDependenciesDocument,
  SupersedeTodoDocument,
  TaskClass,
  type TodoFieldsFragment,
  TodoStatus,
  TodosDocument,
  TodoTransitionsDocument,
} from '../../client/index.ts';
import { type Context, collect, enumArg, examples, int, run } from '../context.ts';
import { Exit, ExitCode, usage } from '../exit-codes.ts';
import { failureOf, scopeGapOf } from '../outcomes.ts';
import { ago, bold, dim, table, warn } from '../output.ts';

const TASK_CLASSES = Object.values(TaskClass);
const STATUSES = Object.values(TodoStatus);

const todoLine = (t: TodoFieldsFragment) =>
  `${bold(t.id)} ${t.status} ${t.taskClass} p${t.priority}: ${t.title}${t.claim ? dim(` (claimed by ${t.claim.agentId})`) : ''}`;

function todoText(t: TodoFieldsFragment): string {
  const lines = [todoLine(t)];
  if (t.dependsOn.length) lines.push(dim(`depends on ${t.dependsOn.join(', ')}`));
  if (t.resumeWhen.length) lines.push(dim(`resume when ${t.resumeWhen.join(', ')}`));
  if (t.requiredDecisionScopes.length)
    lines.push(dim(`requires ${t.requiredDecisionScopes.join(', ')}`));
  if (t.lease.state !== 'NONE')
    lines.push(
      dim(
        `lease ${t.lease.state} by ${t.lease.holder}, fence ${t.lease.fence}, expires ${ago(t.lease.expiresAt)}`,
      ),
    );
  if (t.supersededBy)
    lines.push(dim(`superseded by ${t.supersededBy}: ${t.supersedeReason ?? ''}`));
  if (t.successorOf) lines.push(dim(`successor of ${t.successorOf}`));
  if (t.evidenceRefs.length) lines.push(dim(`evidence ${t.evidenceRefs.join(', ')}`));
  return lines.join('\n');
}

function packetText(p: HandoffPacketFieldsFragment): string {
  const lines = [
    `next: ${p.nextAction}`,
    `validation: ${p.validation}`,
    `stop: ${p.stopCondition}`,
  ];
  if (p.omitted.length) lines.push(`omitted: ${p.omitted.join('; ')}`);
  if (p.senderWorkspace)
    lines.push(
      dim(
        `sender ran in ${p.senderWorkspace.repository} (${p.senderWorkspace.worktree.toLowerCase()}) at ${p.senderWorkspace.revision}`,
      ),
    );
  for (const e of p.evidence) lines.push(dim(`evidence ${e.ref} (${e.freshness.toLowerCase()})`));
  lines.push(dim('lease not transferred: acquire your own before an effectful run'));
  return lines.join('\n');
}

type TodoLike = { __typename: string } & Partial<TodoFieldsFragment>;

/** Prints a TodoResult-like answer (a Todo, or a typed refusal). */
async function todoResult(ctx: Context, result: TodoLike) {
  await ctx.finish(
    result,
    (result) => (result.__typename === 'Todo' ? todoText(result as TodoFieldsFragment) : undefined),
    failureOf(result),
  );
}

export function todoCommand(program: Command): void {
  const todo = program
    .command('todo')
    .description(
      "the goal's todos: list, show, create, depends, claim, release, complete, supersede, defer, resume, close",
    );

  todo
    .command('list')
    .description('todos, highest priority first')
    .option(
      '--status <statuses>',
      `only these statuses, comma-separated (${STATUSES.join(',').toLowerCase()})`,
    )
    .option('--limit <n>', 'at most this many (1-5000)', int, 200)
    .addHelpText('after', examples('switchboard todo list --status open,deferred'))
    .action(
      run<{ status?: string; limit: number }>(async (ctx, options) => {
        const goalId = await ctx.goal();
        const statuses = options.status?.split(',').map((s) => enumArg(STATUSES)(s.trim())) as
          | TodoStatus[]
          | undefined;
        const { todos } = await ctx.client.request(TodosDocument, {
          goalId,
          limit: options.limit,
          statuses,
        });
        await ctx.finish(
          todos,
          async (todos) => {
            const lines = [
              todos.rows.length === 0
                ? dim('no todos')
                : await table(
                    ['id', 'status', 'class', 'priority', 'claimed by', 'lease', 'title'],
                    todos.rows.map((t) => [
                      t.id,
                      t.status,
                      t.taskClass,
                      t.priority,
                      t.claim?.agentId,
                      t.lease.state === 'NONE' ? null : t.lease.state,
                      t.title,
                    ]),
                  ),
            ];
            if (todos.omittedRowCount > 0)
              lines.push(warn(`truncated: ${todos.omittedRowCount} more (raise --limit)`));
            return lines.join('\n');
          },
          scopeGapOf(todos),
        );
      }),
    );

  todo
    .command('show <id>')
    .description('one todo and its history')
    .addHelpText('after', examples('switchboard todo show t-1 --json'))
    .action(
      run<object, [string]>(async (ctx, _options, id) => {
        const goalId = await ctx.goal();
        const [{ todos }, { todoTransitions }] = await Promise.all([
          ctx.client.request(TodosDocument, { goalId, limit: 5000 }),
          ctx.client.request(TodoTransitionsDocument, { goalId, todoId: id }),
        ]);
        const gap = scopeGapOf(todos);
        if (gap) return ctx.finish(todos, () => undefined, gap);
        const found = todos.rows.find((t) => t.id === id);
        if (!found) throw new Exit(ExitCode.NOT_FOUND, `no todo ${id} in goal ${goalId}`);
        await ctx.print({ todo: found, transitions: todoTransitions.rows }, async (shown) =>
          [
            todoText(shown.todo),
            '',
            await table(
              ['seq', 'kind', 'from', 'to', 'by', 'when', 'detail'],
              shown.transitions.map((r) => [
                r.seq,
                r.kind,
                r.fromStatus,
                r.toStatus,
                r.actor.agentId ?? r.actor.kind,
                ago(r.at),
                r.detail,
              ]),
            ),
          ].join('\n'),
        );
      }),
    );

  todo
    .command('create')
    .description('create a todo')
    .requiredOption('--title <text>', 'title')
    .option(
      '--class <class>',
      `task class (${TASK_CLASSES.join(', ').toLowerCase()})`,
      enumArg(TASK_CLASSES),
      'ADVANCEMENT_TASK',
    )
    .option('--priority <n>', 'priority (higher first)', int)
    .option('--depends-on <id>', 'a dependency (repeatable)', collect)
    .option(
      '--resume-when <condition>',
      'todo_done:<id>, gate_resolved:<id>, capacity_available:<cap>, pr_merged:<owner/repo>#<n> (repeatable)',
      collect,
    )
    .option(
      '--scope <scope>',
      'a required decision scope kind:granularity:key (repeatable)',
      collect,
    )
    .option('--capability <name>', 'required capability')
    .option(
      '--repository <repo>',
      'the repository it writes to: git:github.com/owner/repo or a URL without credentials',
    )
    .option('--write-scope <glob>', 'relative path or glob it writes (repeatable)', collect)
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText(
      'after',
      examples(
        'switchboard todo create --title "add CLI tests" --priority 5 --write-scope "test/**"',
        'switchboard todo create --title "fix login" --repository git:github.com/acme/web --write-scope src/auth',
      ),
    )
    .action(
      run<{
        title: string;
        class: string;
        priority?: number;
        dependsOn?: string[];
        resumeWhen?: string[];
        scope?: string[];
        capability?: string;
        repository?: string;
        writeScope?: string[];
        agent?: string;
      }>(async (ctx, o) => {
        const goalId = await ctx.goal();
        const { createTodo } = await ctx.client.request(CreateTodoDocument, {
          input: {
            goalId,
            title: o.title,
            taskClass: o.class as TaskClass,
            priority: o.priority,
            dependsOn: o.dependsOn,
            resumeWhen: o.resumeWhen,
            requiredDecisionScopes: o.scope,
            requiredCapability: o.capability,
            taskRepository: o.repository,
            writeScope: o.writeScope,
            agentId: o.agent,
          },
        });
        await todoResult(ctx, createTodo as TodoLike);
      }),
    );

  todo
    .command('depends <id> [todos...]')
    .description(
      "replace a live todo's dependencies with these todos (--none: no dependency); a cycle or an unknown id is refused",
    )
    .option('--none', 'depend on nothing')
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText(
      'after',
      examples('switchboard todo depends t-3 t-1 t-2', 'switchboard todo depends t-3 --none'),
    )
    .action(
      run<{ none?: boolean; agent?: string }, [string, string[]]>(async (ctx, o, id, todos) => {
        if (Boolean(o.none) === todos.length > 0)
          throw usage('name the todos it depends on, or pass --none');
        const { setDependencies } = await ctx.client.request(SetDependenciesDocument, {
          input: { goalId: await ctx.goal(), todoId: id, dependsOn: todos, agentId: o.agent },
        });
        await todoResult(ctx, setDependencies as TodoLike);
      }),
    );

  todo
    .command('claim <id>')
    .description(
      'make yourself its soft owner (not a lock, not proof it can run); warns of overlapping write scopes',
    )
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText(
      'after',
      examples('switchboard todo claim t-1', 'switchboard todo claim t-1 --json | jq .warnings'),
    )
    .action(
      run<{ agent?: string }, [string]>(async (ctx, o, id) => {
        const goalId = await ctx.goal();
        const { claimTodo: r } = await ctx.client.request(ClaimTodoDocument, {
          input: { goalId, todoId: id, agentId: o.agent },
        });
        await ctx.finish(
          r,
          (r) =>
            r.__typename === 'ClaimedTodo'
              ? [
                  todoText(r.todo),
                  ...r.warnings.map((w) =>
                    warn(
                      `warning: ${w.writeScope} overlaps ${w.otherWriteScope} of ${w.todoId}, claimed by ${w.owner}${w.repository ? ` in ${w.repository}` : ''}: the later claim is held back on the frontier`,
                    ),
                  ),
                ].join('\n')
              : undefined,
          failureOf(r),
        );
      }),
    );

  const simple = [
    ['release', 'drop your claim', ReleaseClaimDocument, 'releaseClaim'],
    ['resume', 'a deferred todo back to OPEN after replanning', ResumeTodoDocument, 'resumeTodo'],
  ] as const;
  for (const [verb, what, document, field] of simple)
    todo
      .command(`${verb} <id>`)
      .description(what)
      .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
      .addHelpText('after', examples(`switchboard todo ${verb} t-1`))
      .action(
        run<{ agent?: string }, [string]>(async (ctx, o, id) => {
          const goalId = await ctx.goal();
          const data = (await ctx.client.request(document as typeof ReleaseClaimDocument, {
            input: { goalId, todoId: id, agentId: o.agent },
          })) as unknown as Record<string, TodoLike>;
          await todoResult(ctx, data[field] as TodoLike);
        }),
      );

  todo
    .command('complete <id>')
    .description('DONE with evidence refs (relative paths or URLs)')
    .option('--ref <ref>', 'evidence ref (repeatable)', collect, [])
    .option('--successor <title>', 'create a successor todo with this title')
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText(
      'after',
      examples('switchboard todo complete t-1 --ref test/cli.test.ts --ref docs/cli.md'),
    )
    .action(
      run<{ ref: string[]; successor?: string; agent?: string }, [string]>(async (ctx, o, id) => {
        const goalId = await ctx.goal();
        const { completeTodo: r } = await ctx.client.request(CompleteTodoDocument, {
          input: {
            goalId,
            todoId: id,
            evidenceRefs: o.ref,
            agentId: o.agent,
            successor: o.successor
              ? { title: o.successor, taskClass: 'ADVANCEMENT_TASK' }
              : undefined,
          },
        });
        await ctx.finish(
          r,
          (r) =>
            r.__typename === 'CompletedTodo'
              ? [todoText(r.todo), r.successor ? `successor: ${todoLine(r.successor)}` : '']
                  .filter(Boolean)
                  .join('\n')
              : undefined,
          failureOf(r),
        );
      }),
    );

  todo
    .command('supersede <id>')
    .description('SUPERSEDED (never DONE) by a named or new replacement; lineage kept')
    .requiredOption('--reason <text>', 'why')
    .option('--by <id>', 'the replacement todo')
    .option('--title <text>', 'create the replacement with this title')
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText(
      'after',
      examples('switchboard todo supersede t-1 --reason "split in two" --title "part one"'),
    )
    .action(
      run<{ reason: string; by?: string; title?: string; agent?: string }, [string]>(
        async (ctx, o, id) => {
          if (Boolean(o.by) === Boolean(o.title))
            throw usage('give exactly one of --by <id> or --title <text>');
          const goalId = await ctx.goal();
          const { supersedeTodo: r } = await ctx.client.request(SupersedeTodoDocument, {
            input: {
              goalId,
              todoId: id,
              reason: o.reason,
              agentId: o.agent,
              replacementId: o.by,
              replacement: o.title ? { title: o.title, taskClass: 'ADVANCEMENT_TASK' } : undefined,
            },
          });
          await ctx.finish(
            r,
            (r) =>
              r.__typename === 'SupersededTodo'
                ? `${todoLine(r.todo)}\nreplacement: ${todoLine(r.replacement)}`
                : undefined,
            failureOf(r),
          );
        },
      ),
    );

  todo
    .command('defer <id>')
    .description('DEFERRED until resume conditions hold')
    .requiredOption(
      '--resume-when <condition>',
      'todo_done:<id>, gate_resolved:<id>, capacity_available:<cap>, pr_merged:<owner/repo>#<n> (repeatable)',
      collect,
    )
    .option('--reason <text>', 'why')
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText('after', examples('switchboard todo defer t-2 --resume-when todo_done:t-1'))
    .action(
      run<{ resumeWhen: string[]; reason?: string; agent?: string }, [string]>(
        async (ctx, o, id) => {
          const goalId = await ctx.goal();
          const { deferTodo } = await ctx.client.request(DeferTodoDocument, {
            input: {
              goalId,
              todoId: id,
              resumeWhen: o.resumeWhen,
              reason: o.reason,
              agentId: o.agent,
            },
          });
          await todoResult(ctx, deferTodo as TodoLike);
        },
      ),
    );

  todo
    .command('close <id>')
    .description('CLOSED_NO_FOLLOW_UP with a required reason')
    .requiredOption('--reason <text>', 'why no follow-up')
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText(
      'after',
      examples('switchboard todo close t-3 --reason "obsolete after the redesign"'),
    )
    .action(
      run<{ reason: string; agent?: string }, [string]>(async (ctx, o, id) => {
        const goalId = await ctx.goal();
        const { closeNoFollowUp } = await ctx.client.request(CloseNoFollowUpDocument, {
          input: { goalId, todoId: id, reason: o.reason, agentId: o.agent },
        });
        await todoResult(ctx, closeNoFollowUp as TodoLike);
      }),
    );

  todo
    .command('handoff <id>')
    .description(
      'hand a live todo to --to (it becomes the claimant) or, without --to, to any qualified peer: one bounded packet, a HANDOFF ledger row, a CONTEXT delivery; your lease ends and is never transferred',
    )
    .option('--to <agent>', 'the receiver (omit: unclaimed for any qualified peer)')
    .requiredOption('--next <text>', 'the next action')
    .requiredOption('--validation <text>', 'how to tell the work is right')
    .requiredOption('--stop <text>', 'the stop condition: when to stop or hand back')
    .option('--omitted <text>', 'something omitted or private (repeatable)', collect, [])
    .option('--agent <id>', 'hand off as this agent (ADMIN/STEWARD)')
    .addHelpText(
      'after',
      examples(
        'switchboard todo handoff t-1 --to reviewer --next "review the diff" --validation "npm test" --stop "approve or request changes"',
        'switchboard todo handoff t-1 --next "finish the port" --validation "both drivers green" --stop "done" --omitted "the vendor contract (ask the steward)"',
      ),
    )
    .action(
      run<
        {
          to?: string;
          next: string;
          validation: string;
          stop: string;
          omitted: string[];
          agent?: string;
        },
        [string]
      >(async (ctx, o, id) => {
        const goalId = await ctx.goal();
        const { handoffTodo: r } = await ctx.client.request(HandoffTodoDocument, {
          input: {
            goalId,
            todoId: id,
            to: o.to,
            agentId: o.agent,
            nextAction: o.next,
            validation: o.validation,
            stopCondition: o.stop,
            omitted: o.omitted,
          },
        });
        await ctx.finish(
          r,
          (r) =>
            r.__typename === 'Handoff'
              ? [
                  `handoff ${bold(r.id)} of ${r.todoId} to ${r.receiver ?? 'any qualified peer'}${r.deliveryId ? dim(` (CONTEXT delivery ${r.deliveryId})`) : ''}`,
                  packetText(r),
                ].join('\n')
              : undefined,
          failureOf(r),
        );
      }),
    );

  todo
    .command('packet <handoffId>')
    .description(
      "a handoff packet, with the todo's guards evaluated for you now (not the sender's old view)",
    )
    .option(
      '--agent <id>',
      'evaluate the guards for this agent (ADMIN/STEWARD: default the receiver)',
    )
    .addHelpText('after', examples('switchboard todo packet hof_1234 --json'))
    .action(
      run<{ agent?: string }, [string]>(async (ctx, o, handoffId) => {
        const goalId = await ctx.goal();
        const { handoff: r } = await ctx.client.request(HandoffDocument, {
          goalId,
          handoffId,
          agentId: o.agent,
        });
        await ctx.finish(
          r,
          (r) =>
            r.__typename === 'HandoffRead'
              ? [
                  `handoff ${bold(r.id)} of ${r.todoId}: ${r.status}${r.live ? (r.runnable ? ` — runnable for ${r.readFor}` : ` — not runnable for ${r.readFor}`) : ''}`,
                  ...r.guards.map((g) => warn(`${g.kind}: ${g.detail}`)),
                  packetText(r),
                ].join('\n')
              : undefined,
          failureOf(r),
        );
      }),
    );
}
