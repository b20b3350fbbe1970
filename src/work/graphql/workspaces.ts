/** Workspaces: where an agent declares it runs (repository, worktree, revision), read and replaced. */
import { builder } from '../../graphql/builder.ts';
import { listingRef, ScopeGapRef } from '../../graphql/shared.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { UnknownAgentRef } from '../../registry/graphql/agents.ts';
import { type AgentWorkspace, type WorktreeKind, worktreeKinds } from '../tables.ts';
import { declareWorkspace, listWorkspaces } from '../workspaces.ts';
import { ActorRef, AGENT_ID } from './write.ts';

const WorktreeKindEnum = builder.enumType('WorktreeKind', {
  description: "What kind of checkout an agent's workspace is.",
  values: describeValues(worktreeKinds, {
    LINKED:
      'A linked worktree of its own (`git worktree add`): where repository-writing work may run.',
    CANONICAL:
      "The repository's canonical checkout, shared with people and other tools: refused for repository-writing work.",
  } satisfies Record<WorktreeKind, string>),
});

type WorkspaceFields = Pick<AgentWorkspace, 'repository' | 'worktree' | 'revision' | 'declaredAt'>;

/** The declared fields of a workspace, on every type that shows one. */
export const WorkspaceRef = builder.objectRef<WorkspaceFields>('Workspace').implement({
  description:
    'Where an agent declared it runs: a declaration, not an observation. Switchboard cannot see the checkout; an old declaration does not prove the checkout is unchanged.',
  fields: (t) => ({
    repository: t.exposeString('repository', {
      description: "The canonical identity of the checkout's repository (`git:host/owner/repo`).",
    }),
    worktree: t.expose('worktree', {
      type: WorktreeKindEnum,
      description: 'What kind of checkout.',
    }),
    revision: t.exposeString('revision', {
      description: 'The commit checked out when declared (lower-case hex).',
    }),
    declaredAt: t.expose('declaredAt', { type: 'DateTime', description: 'When declared.' }),
  }),
});

const AgentWorkspaceRef = builder.objectRef<AgentWorkspace>('AgentWorkspace').implement({
  description:
    "An agent's declared workspace in a goal (one per agent, replaced on each declaration). Checked by the WORKSPACE guard; grants no authority.",
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    agentId: t.exposeID('agentId', { description: 'The agent.' }),
    workspace: t.field({ type: WorkspaceRef, resolve: (w) => w, description: 'Where it runs.' }),
    declaredBy: t.field({
      type: ActorRef,
      resolve: (w) => ({ kind: w.declaredByKind, agentId: w.declaredByAgent }),
      description: 'Who declared it.',
    }),
  }),
});

const AgentWorkspaceListingRef = listingRef<AgentWorkspace>(
  'AgentWorkspaceListing',
  "Every agent's declared workspace in a goal, or a scope gap with no rows.",
  AgentWorkspaceRef,
  'By agent id.',
);

const DeclareWorkspaceResult = builder.unionType('DeclareWorkspaceResult', {
  description: 'The workspace as declared, or why not.',
  types: [AgentWorkspaceRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});

const DeclareWorkspaceInput = builder.inputType('DeclareWorkspaceInput', {
  description: 'Where the acting agent runs in the goal; replaces its earlier declaration.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ description: AGENT_ID }),
    repository: t.string({
      required: true,
      description:
        "The checkout's repository, without credentials: `git:github.com/owner/repo` (an https or `git@host:` URL is accepted and stored in that form).",
    }),
    worktree: t.field({
      type: WorktreeKindEnum,
      required: true,
      description: 'LINKED (a worktree of its own) or CANONICAL (the shared checkout).',
    }),
    revision: t.string({
      required: true,
      description: 'The commit checked out: 7 to 64 hex digits.',
    }),
  }),
});

builder.queryFields((t) => ({
  workspaces: t.withAuth({ reader: true }).field({
    type: AgentWorkspaceListingRef,
    description: "Every agent's declared workspace in the goal.",
    args: { goalId: t.arg.id({ required: true, description: 'The goal.' }) },
    resolve: (_root, args, { db, caller }) => listWorkspaces(db, caller, args.goalId),
  }),
}));

builder.mutationFields((t) => ({
  declareWorkspace: t.withAuth({ reader: true }).field({
    type: DeclareWorkspaceResult,
    description:
      'Declares where the acting agent runs in the goal (repository, LINKED or CANONICAL, revision), read by the WORKSPACE guard. A declaration like capabilities: it grants no authority, and moves the work sequence.',
    args: {
      input: t.arg({
        type: DeclareWorkspaceInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => declareWorkspace(db, caller, input),
  }),
}));
