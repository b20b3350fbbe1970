/** The work toolset: the frontier, the todo list, claiming and closing todos, opening gates. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  ClaimTodoDocument,
  CloseNoFollowUpDocument,
  CompleteTodoDocument,
  CreateTodoDocument,
  DeclareWorkspaceDocument,
  DeferTodoDocument,
  FrontierDocument,
  GateGranularity,
  GateKind,
  GoalClosureDocument,
  HandoffDocument,
  HandoffTodoDocument,
  OpenGateDocument,
  RecordExternalEventDocument,
  ReleaseClaimDocument,
  SetCapabilitiesDocument,
  SetDependenciesDocument,
  TaskClass,
  type TodoResultFieldsFragment,
  TodoStatus,
  TodosDocument,
  WorktreeKind,
} from '../../client/index.ts';
import type { McpContext } from '../context.ts';
import { type Answer, answer, registerTool, typeOf } from '../tool.ts';

const TODO_TYPES = [
  'Todo',
  'ClaimedByOther',
  'IllegalTransition',
  'UnknownAgent',
  'UnknownTodo',
  'ScopeGap',
] as const;

function todoAnswer(result: TodoResultFieldsFragment | { __typename: string }): Answer {
  const r = result as Record<string, unknown> & { __typename: string };
  switch (r.__typename) {
    case 'Todo':
      return answer('Todo', `${r.id} ${r.status}: ${r.title}`, r);
    case 'ClaimedByOther':
      return answer(r.__typename, `ClaimedByOther: ${r.todoId} is claimed by ${r.owner}`, r);
    case 'IllegalTransition':
      return answer(
        r.__typename,
        `IllegalTransition: ${r.todoId} is ${r.from}; cannot ${r.attempted}`,
        r,
      );
    case 'ScopeGap':
      return answer(r.__typename, `ScopeGap: ${r.reason}`, r);
    default:
      return answer(r.__typename, `${r.__typename}: ${r.todoId ?? r.agentId ?? ''}`, r);
  }
}

const todoArg = { todo: z.string() };

export function workTools(server: McpServer, ctx: McpContext): void {
  registerTool(server, ctx, 'frontier', {
    description:
      'Todos you could take now, runnable first, then held ones with their guards; at most `limit` rows (default 50). claim_todo takes one.',
    input: {
      runnable: z.boolean().optional(),
      limit: z.number().int().min(0).max(5000).default(50),
    },
    types: ['Frontier', 'UnknownAgent', 'ScopeGap'],
    readOnly: true,
    async run({ runnable, limit }) {
      const me = await ctx.me();
      const { frontier } = await ctx.client.request(FrontierDocument, {
        goalId: await ctx.goal(),
        agentId: me.agentId ?? undefined,
        runnable,
        limit,
      });
      if (frontier.__typename !== 'Frontier')
        return answer(frontier.__typename, frontier.__typename, frontier);
      const lines = frontier.rows.map(
        (r) =>
          `${r.runnable ? 'runnable' : `held (${r.guards.map((g) => g.kind).join(',')})`} ${r.todo.id}: ${r.todo.title}`,
      );
      lines.push(
        `${frontier.runnableCount} runnable of ${frontier.rowCount}${frontier.omittedRowCount ? `; ${frontier.omittedRowCount} rows not shown (limit, runnable)` : ''}`,
      );
      return answer('Frontier', lines.join('\n'), frontier);
    },
  });

  registerTool(server, ctx, 'todos', {
    description: "The goal's todos, newest first; `statuses` filters (e.g. OPEN, CLAIMED).",
    input: {
      statuses: z.array(z.enum(TodoStatus)).optional(),
      limit: z.number().int().min(1).max(500).optional(),
    },
    types: ['Todos', 'ScopeGap'],
    readOnly: true,
    async run({ statuses, limit }) {
      const { todos } = await ctx.client.request(TodosDocument, {
        goalId: await ctx.goal(),
        statuses,
        limit,
      });
      const lines = todos.rows.map(
        (t) => `${t.id} ${t.status}${t.claim ? ` by ${t.claim.agentId}` : ''}: ${t.title}`,
      );
      return answer(typeOf(todos, 'Todos'), lines.join('\n') || 'no todos', todos);
    },
  });

  registerTool(server, ctx, 'create_todo', {
    description:
      'Create a todo; `repository` (git:host/owner/repo) and `write_scope` (paths or globs) say what it writes.',
    input: {
      title: z.string().min(1),
      class: z.enum(TaskClass).default('ADVANCEMENT_TASK'),
      depends_on: z.array(z.string()).optional(),
      repository: z.string().optional(),
      write_scope: z.array(z.string()).optional(),
    },
    types: ['Todo', 'UnknownAgent', 'ScopeGap'],
    async run(a) {
      const { createTodo } = await ctx.client.request(CreateTodoDocument, {
        input: {
          goalId: await ctx.goal(),
          title: a.title,
          taskClass: a.class,
          dependsOn: a.depends_on,
          taskRepository: a.repository,
          writeScope: a.write_scope,
        },
      });
      return todoAnswer(createTodo);
    },
  });

  registerTool(server, ctx, 'set_dependencies', {
    description: "Replace a live todo's dependencies (empty: none).",
    input: { todo: z.string(), depends_on: z.array(z.string()) },
    types: TODO_TYPES,
    async run({ todo, depends_on }) {
      const { setDependencies } = await ctx.client.request(SetDependenciesDocument, {
        input: { goalId: await ctx.goal(), todoId: todo, dependsOn: depends_on },
      });
      return todoAnswer(setDependencies);
    },
  });

  registerTool(server, ctx, 'set_capabilities', {
    description: 'Replace your declared capabilities (for the CAPABILITY guard).',
    input: { capabilities: z.array(z.string()).max(32) },
    types: ['AgentCapabilities', 'UnknownAgent', 'ScopeGap'],
    async run({ capabilities }) {
      const { setCapabilities: r } = await ctx.client.request(SetCapabilitiesDocument, {
        input: { goalId: await ctx.goal(), capabilities },
      });
      if (r.__typename !== 'AgentCapabilities') return answer(r.__typename, r.__typename, r);
      return answer(r.__typename, r.capabilities.join(', ') || 'no capabilities', r);
    },
  });

  registerTool(server, ctx, 'record_merged_pr', {
    description: 'Record a merged pull request (once); it satisfies `pr_merged:` conditions.',
    input: {
      repository: z.string(),
      number: z.string(),
      observed_at: z.string().optional().describe('ISO; default now'),
    },
    types: ['ExternalEvent', 'UnknownAgent', 'ScopeGap'],
    async run({ repository, number, observed_at }) {
      const { recordExternalEvent: r } = await ctx.client.request(RecordExternalEventDocument, {
        input: {
          goalId: await ctx.goal(),
          kind: 'PR_MERGED',
          repository,
          ref: number,
          observedAt: observed_at ?? new Date().toISOString(),
        },
      });
      if (r.__typename !== 'ExternalEvent') return answer(r.__typename, r.__typename, r);
      return answer(
        r.__typename,
        `${r.fact.repository}#${r.fact.ref} merged${r.replayed ? ' (already recorded)' : ''}`,
        r,
      );
    },
  });

  registerTool(server, ctx, 'claim_todo', {
    description:
      "Claim a todo. ClaimedByOther names the owner. `warnings`: others' claims whose write scope overlaps.",
    input: todoArg,
    types: ['ClaimedTodo', ...TODO_TYPES.filter((t) => t !== 'Todo')],
    async run({ todo }) {
      const { claimTodo: r } = await ctx.client.request(ClaimTodoDocument, {
        input: { goalId: await ctx.goal(), todoId: todo },
      });
      if (r.__typename !== 'ClaimedTodo') return todoAnswer(r);
      const overlaps = r.warnings.map((w) => `${w.writeScope} overlaps ${w.todoId} (${w.owner})`);
      return answer(
        'ClaimedTodo',
        `${r.todo.id} claimed${overlaps.length ? `; warning: ${overlaps.join('; ')}` : ''}`,
        r,
      );
    },
  });

  registerTool(server, ctx, 'release_claim', {
    description: 'Give up your claim on a todo; it becomes OPEN for others.',
    input: todoArg,
    types: TODO_TYPES,
    async run({ todo }) {
      const { releaseClaim } = await ctx.client.request(ReleaseClaimDocument, {
        input: { goalId: await ctx.goal(), todoId: todo },
      });
      return todoAnswer(releaseClaim);
    },
  });

  registerTool(server, ctx, 'complete_todo', {
    description:
      'Complete your claimed todo with evidence (relative refs: commit:abc, a path), optionally with a successor.',
    input: {
      todo: z.string(),
      evidence: z.array(z.string()).min(1).max(20),
      successor_title: z.string().optional(),
      successor_class: z.enum(TaskClass).default('ADVANCEMENT_TASK'),
    },
    types: [...TODO_TYPES, 'CompletedTodo'],
    async run({ todo, evidence, successor_title, successor_class }) {
      const { completeTodo: r } = await ctx.client.request(CompleteTodoDocument, {
        input: {
          goalId: await ctx.goal(),
          todoId: todo,
          evidenceRefs: evidence,
          successor: successor_title
            ? { title: successor_title, taskClass: successor_class }
            : undefined,
        },
      });
      if (r.__typename !== 'CompletedTodo') return todoAnswer(r);
      return answer(
        'CompletedTodo',
        `${r.todo.id} DONE${r.successor ? `; successor ${r.successor.id}: ${r.successor.title}` : ''}`,
        r,
      );
    },
  });

  registerTool(server, ctx, 'defer_todo', {
    description:
      'Defer a todo until conditions hold: `todo_done:<id>`, `gate_resolved:<id>`, `capacity_available:<cap>`, `pr_merged:<repo>#<n>`.',
    input: {
      todo: z.string(),
      resume_when: z.array(z.string()).min(1),
      reason: z.string().optional(),
    },
    types: TODO_TYPES,
    async run({ todo, resume_when, reason }) {
      const { deferTodo } = await ctx.client.request(DeferTodoDocument, {
        input: { goalId: await ctx.goal(), todoId: todo, resumeWhen: resume_when, reason },
      });
      return todoAnswer(deferTodo);
    },
  });

  registerTool(server, ctx, 'close_no_follow_up', {
    description: 'Close a todo that needs no follow-up, with the rationale.',
    input: { todo: z.string(), reason: z.string().min(1) },
    types: TODO_TYPES,
    async run({ todo, reason }) {
      const { closeNoFollowUp } = await ctx.client.request(CloseNoFollowUpDocument, {
        input: { goalId: await ctx.goal(), todoId: todo, reason },
      });
      return todoAnswer(closeNoFollowUp);
    },
  });

  registerTool(server, ctx, 'open_gate', {
    description:
      'Ask for a decision (a gate) before acting in a scope; a steward or admin decides.',
    input: {
      kind: z.enum(GateKind),
      granularity: z.enum(GateGranularity),
      scope_key: z.string().describe("letters, digits, '.', '_', '-', '/'"),
      reason: z.string().min(1),
    },
    types: ['Gate', 'UnknownAgent', 'ScopeGap'],
    async run({ kind, granularity, scope_key, reason }) {
      const { openGate: g } = await ctx.client.request(OpenGateDocument, {
        input: { goalId: await ctx.goal(), kind, granularity, scopeKey: scope_key, reason },
      });
      if (g.__typename === 'Gate') return answer('Gate', `gate ${g.id} ${g.state}: ${g.scope}`, g);
      if (g.__typename === 'ScopeGap')
        return answer('ScopeGap', `ScopeGap: ${g.scopeGapReason}`, g);
      return answer(g.__typename, `${g.__typename}: ${g.agentId}`, g);
    },
  });

  registerTool(server, ctx, 'handoff_todo', {
    description:
      'Hand a live todo to `to` (the new claimant) or, without `to`, to any qualified peer, with one packet; your lease ends. HandoffRefused names why.',
    input: {
      todo: z.string(),
      to: z.string().optional(),
      next_action: z.string().min(1),
      validation: z.string().min(1),
      stop_condition: z.string().min(1),
      omitted: z.array(z.string()).max(20).default([]).describe('what is left out or private'),
    },
    types: ['Handoff', 'HandoffRefused', 'LeaseHeld', ...TODO_TYPES.filter((t) => t !== 'Todo')],
    async run({ todo, to, next_action, validation, stop_condition, omitted }) {
      const { handoffTodo: r } = await ctx.client.request(HandoffTodoDocument, {
        input: {
          goalId: await ctx.goal(),
          todoId: todo,
          to,
          nextAction: next_action,
          validation,
          stopCondition: stop_condition,
          omitted,
        },
      });
      if (r.__typename === 'Handoff')
        return answer(
          'Handoff',
          `handoff ${r.id}: ${r.todoId} to ${r.receiver ?? 'any qualified peer'}`,
          r,
        );
      if (r.__typename === 'HandoffRefused')
        return answer(
          r.__typename,
          `HandoffRefused: ${r.refusal}${r.capability ? ` (${r.capability})` : ''}`,
          r,
        );
      if (r.__typename === 'LeaseHeld')
        return answer(r.__typename, `LeaseHeld: ${r.lease.holder} holds ${r.todoId}`, r);
      return todoAnswer(r);
    },
  });

  registerTool(server, ctx, 'handoff_packet', {
    description: "A handoff packet, with the todo's guards evaluated for you now.",
    input: { handoff: z.string() },
    types: ['HandoffRead', 'UnknownHandoff', 'UnknownAgent', 'ScopeGap'],
    readOnly: true,
    async run({ handoff }) {
      const { handoff: r } = await ctx.client.request(HandoffDocument, {
        goalId: await ctx.goal(),
        handoffId: handoff,
      });
      if (r.__typename !== 'HandoffRead') return answer(r.__typename, r.__typename, r);
      return answer(
        'HandoffRead',
        [
          `${r.todoId} ${r.status}: ${r.runnable ? 'runnable' : `held (${r.guards.map((g) => g.kind).join(',') || 'not live'})`} for ${r.readFor}`,
          `next: ${r.nextAction}`,
          `validation: ${r.validation}`,
          `stop: ${r.stopCondition}`,
          ...(r.omitted.length ? [`omitted: ${r.omitted.join('; ')}`] : []),
        ].join('\n'),
        r,
      );
    },
  });

  registerTool(server, ctx, 'declare_workspace', {
    description:
      'Declare where you run (repository, worktree, revision) for the WORKSPACE guard; grants nothing.',
    input: {
      repository: z.string().describe('git:host/owner/repo'),
      worktree: z.enum(WorktreeKind),
      revision: z.string().describe('commit'),
    },
    types: ['AgentWorkspace', 'UnknownAgent', 'ScopeGap'],
    async run({ repository, worktree, revision }) {
      const { declareWorkspace: r } = await ctx.client.request(DeclareWorkspaceDocument, {
        input: { goalId: await ctx.goal(), repository, worktree, revision },
      });
      if (r.__typename !== 'AgentWorkspace') return answer(r.__typename, r.__typename, r);
      return answer(
        'AgentWorkspace',
        `${r.workspace.repository} ${r.workspace.worktree} at ${r.workspace.revision}`,
        r,
      );
    },
  });

  registerTool(server, ctx, 'goal_closure', {
    description: 'Whether the goal may be closed, and every reason not.',
    input: {},
    types: ['GoalClosure', 'ScopeGap'],
    readOnly: true,
    async run() {
      const { goalClosure: r } = await ctx.client.request(GoalClosureDocument, {
        goalId: await ctx.goal(),
      });
      if (r.__typename !== 'GoalClosure') return answer(r.__typename, r.__typename, r);
      const text = r.closure
        ? 'closed'
        : r.closable
          ? 'closable'
          : r.reasons.map((x) => `${x.kind}: ${x.detail}`).join('\n');
      return answer('GoalClosure', text, r);
    },
  });
}
