/** Leases: the Lease type, its refusals, and acquire, renew and release. */
import { builder } from '../../graphql/builder.ts';
import { ScopeGapRef } from '../../graphql/shared.ts';
import { byType } from '../../graphql/values.ts';
import { UnknownAgentRef } from '../../registry/graphql/agents.ts';
import { acquireLease, releaseLease, renewLease } from '../leases.ts';
import type { Lease, LeaseHeld, LeaseState, StaleFence } from '../values.ts';
import { AGENT_ID, IllegalTransitionRef, refusals, UnknownTodoRef } from './write.ts';

export const LeaseStateEnum = builder.enumType('LeaseState', {
  description: 'A lease now, computed from its expiry at read time (no background job).',
  values: {
    ACTIVE: { description: 'Held and not expired.' },
    EXPIRED: {
      description:
        'Past its expiry: anyone may acquire a new one (a takeover); its holder may still renew while nobody has.',
    },
    NONE: {
      description: 'No lease: never taken, released, or cleared when the todo left the frontier.',
    },
  } satisfies Record<LeaseState, unknown>,
});

export const LeaseRef = builder.objectRef<Lease>('Lease').implement({
  description:
    'Optional occupancy of a todo, with a time limit and a fence token for compare-and-set. Grants no authority and does not replace the claim.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    todoId: t.exposeID('todoId', { description: 'The todo.' }),
    state: t.expose('state', { type: LeaseStateEnum, description: 'Now.' }),
    holder: t.exposeID('holder', {
      nullable: true,
      description: 'The agent holding (or, when EXPIRED, last holding) it; null when NONE.',
    }),
    fence: t.exposeString('fence', {
      description:
        'The fence token of the current (or last) lease, a decimal string; each acquire takes a larger one. Pass it to renewLease and releaseLease.',
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it expires (or expired); null when NONE.',
    }),
  }),
});

export const LeaseHeldRef = builder.objectRef<LeaseHeld>('LeaseHeld').implement({
  description:
    'An active lease exists (perhaps your own: renew it with its fence instead). Nothing was written.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    todoId: t.exposeID('todoId', { description: 'The todo.' }),
    lease: t.expose('lease', {
      type: LeaseRef,
      description: 'The active lease: its holder and when it expires unless renewed.',
    }),
  }),
});

const StaleFenceRef = builder.objectRef<StaleFence>('StaleFence').implement({
  description:
    'The fence presented is not a current lease of the caller: it expired (an expired lease is gone, even for its holder: acquire again for a new fence), was taken over, released, or belongs to another agent. Nothing was written.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    todoId: t.exposeID('todoId', { description: 'The todo.' }),
    fence: t.exposeString('fence', { description: 'The fence presented.' }),
    lease: t.expose('lease', { type: LeaseRef, description: 'The lease as it is.' }),
  }),
});

const AcquireLeaseResult = builder.unionType('AcquireLeaseResult', {
  description: 'The new lease with its fence, or why not.',
  types: [LeaseRef, LeaseHeldRef, ...refusals],
  resolveType: byType,
});

const LeaseResult = builder.unionType('LeaseResult', {
  description: 'The lease after a compare-and-set on its fence, or why not.',
  types: [
    LeaseRef,
    StaleFenceRef,
    ScopeGapRef,
    UnknownAgentRef,
    UnknownTodoRef,
    IllegalTransitionRef,
  ],
  resolveType: byType,
});

const AcquireLeaseInput = builder.inputType('AcquireLeaseInput', {
  description: 'Takes the occupancy lease of a todo.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    todoId: t.id({ required: true, description: 'The todo.' }),
    agentId: t.id({ description: AGENT_ID }),
    ttlMs: t.int({ required: true, description: 'Time to live, 1 ms to 24 h.' }),
  }),
});

const RenewLeaseInput = builder.inputType('RenewLeaseInput', {
  description: 'Extends a lease: compare-and-set on its fence.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    todoId: t.id({ required: true, description: 'The todo.' }),
    agentId: t.id({ description: AGENT_ID }),
    fence: t.string({ required: true, description: 'The fence acquireLease returned.' }),
    ttlMs: t.int({ required: true, description: 'New time to live from now, 1 ms to 24 h.' }),
  }),
});

const ReleaseLeaseInput = builder.inputType('ReleaseLeaseInput', {
  description: 'Ends a lease: compare-and-set on its fence.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    todoId: t.id({ required: true, description: 'The todo.' }),
    agentId: t.id({ description: AGENT_ID }),
    fence: t.string({ required: true, description: 'The fence acquireLease returned.' }),
  }),
});

builder.mutationFields((t) => ({
  acquireLease: t.withAuth({ reader: true }).field({
    type: AcquireLeaseResult,
    description:
      'Takes the occupancy lease and returns a new fence, unless an active lease exists. An expired lease is taken over.',
    args: {
      input: t.arg({
        type: AcquireLeaseInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => acquireLease(db, caller, input),
  }),
  renewLease: t.withAuth({ reader: true }).field({
    type: LeaseResult,
    description: 'Extends the lease if the fence is current and yours; otherwise StaleFence.',
    args: {
      input: t.arg({
        type: RenewLeaseInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => renewLease(db, caller, input),
  }),
  releaseLease: t.withAuth({ reader: true }).field({
    type: LeaseResult,
    description: 'Ends the lease if the fence is current and yours; otherwise StaleFence.',
    args: {
      input: t.arg({
        type: ReleaseLeaseInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => releaseLease(db, caller, input),
  }),
}));
