import type { Caller } from '../core/caller.ts';
import { builder } from '../graphql/builder.ts';
import { CallerKindEnum, listingRef, ScopeGapRef } from '../graphql/shared.ts';
import { byType } from '../graphql/values.ts';
import {
  type AgentListing,
  createGoal,
  delegateGoal,
  type IssuedCredential,
  issueCredential,
  listAgents,
  listCredentials,
  listGoals,
  registerAgent,
  retireAgent,
  revokeCredential,
  rotateCredential,
  type UnknownAgent,
} from './registry.ts';
import { goalsInScope } from './scope.ts';
import type { Agent, Credential, Delegation, Goal } from './tables.ts';

export const UnknownAgentRef = builder.objectRef<UnknownAgent>('UnknownAgent').implement({
  description: 'No agent with this id is registered (and active, where that matters) in the goal.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal searched.' }),
    agentId: t.exposeID('agentId', { description: 'The agent id that matched nothing.' }),
  }),
});

// ---- types ---------------------------------------------------------------------------

export const GoalRef = builder.objectRef<Goal>('Goal').implement({
  description: 'One goal that peers work on together; the unit of scope.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Stable id chosen at creation.' }),
    title: t.exposeString('title', { description: 'Human-readable title.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});

export const AgentRef = builder.objectRef<Agent>('Agent').implement({
  description:
    'A registered agent identity. Registration, not a live session, is what makes an agent exist.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal it is registered to.' }),
    agentId: t.exposeID('agentId', { description: 'Its id, unique within the goal.' }),
    agentModel: t.exposeString('agentModel', {
      description: 'The model it runs on, as registered.',
    }),
    hostSurface: t.exposeString('hostSurface', {
      description: 'Where it runs (a CLI or host name). A label, never an identity to resolve.',
    }),
    registeredAt: t.expose('registeredAt', {
      type: 'DateTime',
      description: 'When it was registered.',
    }),
    retiredAt: t.expose('retiredAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was retired; null while it is a member of its goal.',
    }),
  }),
});

const AgentListingRef = listingRef<Agent, AgentListing>(
  'AgentListing',
  'The agents registered to a goal, or a scope gap with no rows.',
  AgentRef,
  'Agents, by id.',
);

const DelegationRef = builder.objectRef<Delegation>('Delegation').implement({
  description: 'A goal delegated to an agent of another (or the same) goal.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal the agent may now act in.' }),
    agentGoalId: t.exposeID('agentGoalId', { description: 'The goal the agent is registered to.' }),
    agentId: t.exposeID('agentId', { description: 'The agent.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was delegated.' }),
  }),
});

const CredentialRef = builder.objectRef<Credential>('Credential').implement({
  description:
    'A credential and what it binds. Never its token: only a hash is stored, and the hash is not served either.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Use it to revoke.' }),
    kind: t.expose('kind', {
      type: CallerKindEnum,
      description: 'The caller kind.',
    }),
    label: t.exposeString('label', { description: 'Free text to recognise it by.' }),
    goalId: t.exposeID('goalId', { nullable: true, description: 'PEER: its goal.' }),
    agentId: t.exposeID('agentId', { nullable: true, description: 'PEER: its agent.' }),
    providerId: t.exposeID('providerId', {
      nullable: true,
      description: 'PROVIDER: its provider.',
    }),
    goalIds: t.exposeIDList('goalIds', { description: 'STEWARD and PROVIDER: its goals.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was issued.' }),
    revokedAt: t.expose('revokedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was revoked (or rotated); null while it is valid.',
    }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description:
        'When a request last arrived with it, to within a minute: each gateway instance records a use at most once a minute per credential. Null: no use recorded. Not a log of requests, and not proof that it was not used in the last minute.',
    }),
  }),
});

const IssuedCredentialRef = builder.objectRef<IssuedCredential>('IssuedCredential').implement({
  description: 'A new credential and its token. The token is shown here once and never again.',
  fields: (t) => ({
    token: t.exposeString('token', {
      description: 'Send as `Authorization: Bearer <token>`. Store it now: it cannot be read back.',
    }),
    credential: t.expose('credential', {
      type: CredentialRef,
      description: 'What it binds.',
    }),
  }),
});

const CallerRef = builder.objectRef<{ caller: Caller; goalIds: string[] }>('Caller').implement({
  description: 'The caller as resolved from its credential.',
  fields: (t) => ({
    kind: t.field({
      type: CallerKindEnum,
      resolve: (c) => c.caller.kind,
      description: 'Its kind.',
    }),
    credentialId: t.id({
      nullable: true,
      resolve: (c) => c.caller.credentialId,
      description: 'The credential used; null for the operator token.',
    }),
    goalId: t.id({
      nullable: true,
      resolve: (c) => (c.caller.kind === 'PEER' ? c.caller.goalId : null),
      description: 'PEER: its goal.',
    }),
    agentId: t.id({
      nullable: true,
      resolve: (c) => (c.caller.kind === 'PEER' ? c.caller.agentId : null),
      description: 'PEER: its agent.',
    }),
    providerId: t.id({
      nullable: true,
      resolve: (c) => (c.caller.kind === 'PROVIDER' ? c.caller.providerId : null),
      description: 'PROVIDER: its provider.',
    }),
    goalIds: t.exposeIDList('goalIds', {
      description:
        'The goals currently in scope (for ADMIN: every goal). A retired agent has none.',
    }),
  }),
});

// ---- results -------------------------------------------------------------------------

const GoalAlreadyExistsRef = builder.objectRef<{ goal: Goal }>('GoalAlreadyExists').implement({
  description: 'A goal with this id exists already; nothing was written.',
  fields: (t) => ({
    goal: t.expose('goal', { type: GoalRef, description: 'The existing goal.' }),
  }),
});

const AgentAlreadyRegisteredRef = builder
  .objectRef<{ agent: Agent }>('AgentAlreadyRegistered')
  .implement({
    description:
      'An agent with this id is (or was: ids of retired agents are not reused) registered to the goal; nothing was written.',
    fields: (t) => ({
      agent: t.expose('agent', {
        type: AgentRef,
        description: 'The existing agent.',
      }),
    }),
  });

const CreateGoalResult = builder.unionType('CreateGoalResult', {
  description: 'The new goal, or the existing one it conflicts with.',
  types: [GoalRef, GoalAlreadyExistsRef],
  resolveType: byType,
});
const RegisterAgentResult = builder.unionType('RegisterAgentResult', {
  description: 'The new agent, a conflict, or a scope gap.',
  types: [AgentRef, AgentAlreadyRegisteredRef, ScopeGapRef],
  resolveType: byType,
});
const RetireAgentResult = builder.unionType('RetireAgentResult', {
  description: 'The retired agent, or why it could not be retired.',
  types: [AgentRef, UnknownAgentRef, ScopeGapRef],
  resolveType: byType,
});
const DelegateGoalResult = builder.unionType('DelegateGoalResult', {
  description: 'The delegation, or why it could not be made.',
  types: [DelegationRef, UnknownAgentRef, ScopeGapRef],
  resolveType: byType,
});

// ---- inputs --------------------------------------------------------------------------

const CreateGoalInput = builder.inputType('CreateGoalInput', {
  description: 'A new goal.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: '1-64 letters, digits, ".", "_" or "-".' }),
    title: t.string({ required: true, description: 'Up to 200 characters.' }),
  }),
});

const RegisterAgentInput = builder.inputType('RegisterAgentInput', {
  description: 'A new agent identity in a goal.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ required: true, description: '1-64 letters, digits, ".", "_" or "-".' }),
    agentModel: t.string({ required: true, description: 'The model, up to 100 characters.' }),
    hostSurface: t.string({ required: true, description: 'Where it runs, up to 100 characters.' }),
  }),
});

const DelegateGoalInput = builder.inputType('DelegateGoalInput', {
  description: 'Let an agent of `agentGoalId` also act in `goalId`.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal being delegated.' }),
    agentGoalId: t.id({ required: true, description: 'The goal the agent is registered to.' }),
    agentId: t.id({ required: true, description: 'The agent.' }),
  }),
});

const IssueCredentialInput = builder.inputType('IssueCredentialInput', {
  description:
    'What the credential binds. PEER: goalId + agentId. STEWARD: goalIds. PROVIDER: providerId + goalIds. ADMIN: nothing.',
  fields: (t) => ({
    kind: t.field({ type: CallerKindEnum, required: true, description: 'The caller kind.' }),
    goalId: t.id({ description: "PEER: the agent's goal." }),
    agentId: t.id({ description: 'PEER: the agent.' }),
    goalIds: t.idList({ description: 'STEWARD and PROVIDER: existing goals.' }),
    providerId: t.id({ description: 'PROVIDER: the provider it speaks for.' }),
    label: t.string({ description: 'Free text to recognise it by, up to 100 characters.' }),
  }),
});

// ---- fields --------------------------------------------------------------------------

builder.queryFields((t) => ({
  me: t.withAuth({ authenticated: true }).field({
    type: CallerRef,
    description: 'The caller as resolved from its credential, with the goals now in its scope.',
    resolve: async (_root, _args, { db, caller }) => ({
      caller: caller,
      goalIds: await goalsInScope(db, caller),
    }),
  }),
  goals: t.withAuth({ reader: true }).field({
    type: [GoalRef],
    description: "The goals in the caller's scope, by id.",
    resolve: (_root, _args, { db, caller }) => listGoals(db, caller),
  }),
  credentials: t.withAuth({ admin: true }).field({
    type: [CredentialRef],
    description:
      'Credentials, newest first, revoked ones included: every one, or those whose binding covers `goalId`, of one `kind`. Without tokens or their hashes. Admin only.',
    args: {
      goalId: t.arg.id({
        description:
          "Only credentials bound to this goal (a PEER's goal, a STEWARD's or PROVIDER's goals). ADMIN credentials are bound to no goal.",
      }),
      kind: t.arg({ type: CallerKindEnum, description: 'Only credentials of this kind.' }),
    },
    resolve: (_root, args, { db }) => listCredentials(db, { goalId: args.goalId, kind: args.kind }),
  }),
  agents: t.withAuth({ reader: true }).field({
    type: AgentListingRef,
    description: 'The agents registered to a goal; a scope gap with no rows when out of scope.',
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      includeRetired: t.arg.boolean({
        defaultValue: false,
        description: 'Also list retired agents.',
      }),
    },
    resolve: (_root, args, { db, caller }) =>
      listAgents(db, caller, args.goalId, args.includeRetired ?? false),
  }),
}));

builder.mutationFields((t) => ({
  createGoal: t.withAuth({ admin: true }).field({
    type: CreateGoalResult,
    description: 'Creates a goal. Admin only.',
    args: {
      input: t.arg({ type: CreateGoalInput, required: true, description: 'What to write.' }),
    },
    resolve: (_root, { input }, { db }) =>
      createGoal(db, { goalId: input.goalId, title: input.title }),
  }),
  registerAgent: t.withAuth({ admin: true }).field({
    type: RegisterAgentResult,
    description: 'Registers an agent identity in a goal. Admin only.',
    args: {
      input: t.arg({ type: RegisterAgentInput, required: true, description: 'What to write.' }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      registerAgent(db, caller, {
        goalId: input.goalId,
        agentId: input.agentId,
        agentModel: input.agentModel,
        hostSurface: input.hostSurface,
      }),
  }),
  retireAgent: t.withAuth({ admin: true }).field({
    type: RetireAgentResult,
    description:
      'Retires an agent: kept in the registry, no longer a member; its open sockets are closed. Admin only.',
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({ required: true, description: 'The agent.' }),
    },
    resolve: (_root, args, { db, caller }) => retireAgent(db, caller, args.goalId, args.agentId),
  }),
  delegateGoal: t.withAuth({ admin: true }).field({
    type: DelegateGoalResult,
    description: "Widens an agent's scope to another goal. Admin only.",
    args: {
      input: t.arg({ type: DelegateGoalInput, required: true, description: 'What to write.' }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      delegateGoal(db, caller, {
        goalId: input.goalId,
        agentGoalId: input.agentGoalId,
        agentId: input.agentId,
      }),
  }),
  issueCredential: t.withAuth({ admin: true }).field({
    type: IssuedCredentialRef,
    description: 'Issues a credential. The token is in this answer only. Admin only.',
    args: {
      input: t.arg({ type: IssueCredentialInput, required: true, description: 'What to write.' }),
    },
    resolve: (_root, { input }, { db }) =>
      issueCredential(db, {
        kind: input.kind,
        goalId: input.goalId ?? null,
        agentId: input.agentId ?? null,
        goalIds: input.goalIds ?? null,
        providerId: input.providerId ?? null,
        label: input.label,
      }),
  }),
  revokeCredential: t.withAuth({ admin: true }).field({
    type: CredentialRef,
    description:
      'Revokes a credential: refused from the next request on, and its open sockets are closed. Admin only.',
    args: { id: t.arg.id({ required: true, description: 'The credential id.' }) },
    resolve: async (_root, args, { db, deps }) => {
      const revoked = await revokeCredential(db, args.id);
      deps.credentials.drop(revoked.id); // this instance before the ring: the next request is refused
      return revoked;
    },
  }),
  rotateCredential: t.withAuth({ admin: true }).field({
    type: IssuedCredentialRef,
    description:
      'Replaces a credential with a new one of the same binding and label (a new id and token, shown in this answer only). The old one is revoked in the same transaction: refused from the next request on, its open streams end with UNAUTHENTICATED and its sockets close. A revoked or unknown id, or a PEER whose agent is retired, is BAD_USER_INPUT and nothing changes. Admin only.',
    args: { id: t.arg.id({ required: true, description: 'The credential to replace.' }) },
    resolve: async (_root, args, { db, deps }) => {
      const rotated = await rotateCredential(db, args.id);
      deps.credentials.drop(args.id);
      return rotated;
    },
  }),
}));
