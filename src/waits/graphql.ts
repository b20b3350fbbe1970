import { limitsOf } from '../config.ts';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import { single } from '../core/stream.ts';
import { builder } from '../graphql/builder.ts';
import type { ContextOf } from '../graphql/context.ts';
import { listingRef, ScopeGapRef } from '../graphql/shared.ts';
import { byType } from '../graphql/values.ts';
import { LivenessEnum } from '../presence/graphql/presence.ts';
import { UnknownAgentRef } from '../registry/graphql/agents.ts';
import { DEFAULT_WAITS_LIMIT, listWaits, MAX_WAITS_LIMIT, type WaitListing } from './listing.ts';
import { checkPendingWaits, type PendingWaitsLimited } from './pending.ts';
import type { PinState, WaitTargetRow, waitReasons, waitStatuses } from './tables.ts';
import { readWait, startWait, type UnknownWait, type Wait, type WaitInput } from './waits.ts';

const WaitStatusEnum = builder.enumType('WaitStatus', {
  description:
    'Where a wait stands. Only SATISFIED is success; every other terminal state says why not.',
  values: {
    PENDING: { description: 'Not settled yet.' },
    SATISFIED: {
      description: 'A pinned occupant moved, after its baseline, into an accepted liveness.',
    },
    NOT_RUNNING: { description: 'The pinned occupant is gone (see reason). Not success.' },
    UNREACHABLE: { description: 'The pinned occupant became unreachable. Not success.' },
    TIMED_OUT: { description: 'The deadline passed with no settling change. Not success.' },
    UNOBSERVABLE: {
      description:
        'Nothing can be observed of the target any more (reason COVERAGE_LOST: its presence lapsed, so its provider cannot see it) or ever (reason PROVIDER_WITHOUT_PINNED_WAITS: no change can be trusted). Not success, not a timeout, and not a statement that the agent stopped.',
    },
  } satisfies Record<(typeof waitStatuses)[number], unknown>,
});

const WaitReasonEnum = builder.enumType('WaitReason', {
  description: 'Why a wait ended the way it did.',
  values: {
    PINNED_OCCUPANT_REPLACED: {
      description:
        'A different occupant appeared at the pinned location: a replacement never satisfies.',
    },
    PRESENCE_ENDED: { description: 'The provider reported the pinned occupant gone.' },
    NO_PRESENCE_AT_START: {
      description: 'No provider saw the target when the wait started: nothing to pin.',
    },
    PROVIDER_WITHOUT_PINNED_WAITS: {
      description: "The target's provider does not support pinned waits.",
    },
    COVERAGE_LOST: {
      description:
        "The pinned target's presence lapsed (its provider stopped reporting it, restarted, or lost its credential; resolution.seq names the change, whose coverageGap says which), or had lapsed when the wait started. With status UNOBSERVABLE. Never read as the agent having stopped.",
    },
    DEADLINE_PASSED: { description: 'timeoutMs elapsed.' },
  } satisfies Record<(typeof waitReasons)[number], unknown>,
});

const WaitLimitationEnum = builder.enumType('WaitLimitation', {
  description: 'Why a target could not be pinned.',
  values: {
    NO_PRESENCE_AT_START: { description: 'No presence for the target when the wait started.' },
    PROVIDER_WITHOUT_PINNED_WAITS: { description: 'Its provider does not support pinned waits.' },
    COVERAGE_LOST: {
      description: 'Its presence had lapsed when the wait started: nothing could be observed.',
    },
  } satisfies Record<Exclude<PinState, 'PINNED'>, unknown>,
});

const WaitPinRef = builder.objectRef<WaitTargetRow>('WaitPin').implement({
  description: 'The identity a target was resolved to once, at start. Never re-resolved.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    agentId: t.exposeID('agentId', { description: 'The registered agent.' }),
    todoId: t.exposeID('todoId', {
      nullable: true,
      description: "The work it was on: as named, or the agent's current claimed todo.",
    }),
    provider: t.exposeID('provider', {
      nullable: true,
      description: 'The provider; null when unpinned.',
    }),
    providerSessionRef: t.exposeString('providerSessionRef', {
      nullable: true,
      description: "The location inside that provider's session.",
    }),
    occupantRef: t.exposeString('occupantRef', {
      nullable: true,
      description: 'The occupant pinned; another occupant there ends the wait.',
    }),
  }),
});

const WaitTargetRef = builder.objectRef<WaitTargetRow>('WaitTarget').implement({
  description: 'One target of a wait, pinned separately.',
  fields: (t) => ({
    agentId: t.exposeID('agentId', { description: 'The agent.' }),
    pin: t.field({
      type: WaitPinRef,
      resolve: (target) => target,
      description: 'What it was pinned to.',
    }),
    pinned: t.boolean({
      resolve: (target) => target.state === 'PINNED',
      description: 'Whether a location and occupant could be pinned.',
    }),
    limitation: t.field({
      type: WaitLimitationEnum,
      nullable: true,
      resolve: (target) => (target.state === 'PINNED' ? null : target.state),
      description: 'Why it could not be pinned.',
    }),
    baselineSeq: t.expose('baselineSeq', {
      type: 'Seq',
      description: 'Its stateChangeSeq at start; only a change above it can settle the wait.',
    }),
  }),
});

const WaitResolutionRef = builder
  .objectRef<{ agentId: string | null; seq: bigint | null; liveness: string | null }>(
    'WaitResolution',
  )
  .implement({
    description: 'The change that ended the wait.',
    fields: (t) => ({
      agentId: t.exposeID('agentId', { nullable: true, description: 'The target it concerned.' }),
      seq: t.expose('seq', {
        type: 'Seq',
        nullable: true,
        description:
          'The presence change (its stateChangeSeq); null for deadlines and start-time outcomes.',
      }),
      liveness: t.field({
        type: LivenessEnum,
        nullable: true,
        resolve: (r) => r.liveness as never,
        description: 'The liveness that change showed.',
      }),
    }),
  });

export const WaitRef = builder.objectRef<Wait>('Wait').implement({
  description:
    'A durable identity-pinned wait. Any instance can report it; it has exactly one terminal state.',
  fields: (t) => ({
    id: t.id({ resolve: (w) => w.row.id, description: 'Re-subscribe with it after a disconnect.' }),
    goalId: t.id({ resolve: (w) => w.row.goalId, description: 'The goal.' }),
    status: t.field({
      type: WaitStatusEnum,
      resolve: (w) => w.row.status,
      description: 'Where it stands.',
    }),
    reason: t.field({
      type: WaitReasonEnum,
      nullable: true,
      resolve: (w) => w.row.reason,
      description: 'Why it ended so; null while pending, when satisfied, and for UNREACHABLE.',
    }),
    accept: t.field({
      type: [LivenessEnum],
      resolve: (w) => w.row.accept,
      description: 'The liveness values that satisfy it.',
    }),
    pin: t.field({
      type: WaitPinRef,
      resolve: (w) => w.targets[0] as WaitTargetRow,
      description: "The first target's pin (the only one for a single-agent wait).",
    }),
    baselineSeq: t.field({
      type: 'Seq',
      resolve: (w) => (w.targets[0] as WaitTargetRow).baselineSeq,
      description: "The first target's baseline.",
    }),
    targets: t.expose('targets', {
      type: [WaitTargetRef],
      description: 'Every target.',
    }),
    limitations: t.field({
      type: [WaitLimitationEnum],
      resolve: (w) => [
        ...new Set(
          w.targets
            .map((target) => target.state)
            .filter((s): s is Exclude<PinState, 'PINNED'> => s !== 'PINNED'),
        ),
      ],
      description: 'What kept targets from being pinned.',
    }),
    resolution: t.field({
      type: WaitResolutionRef,
      nullable: true,
      resolve: (w) =>
        w.row.status === 'PENDING'
          ? null
          : {
              agentId: w.row.resolvedAgentId,
              seq: w.row.resolvedSeq,
              liveness: w.row.resolvedLiveness,
            },
      description: 'What ended it; null while pending.',
    }),
    timeoutMs: t.int({ resolve: (w) => w.row.timeoutMs, description: 'As requested.' }),
    deadline: t.field({
      type: 'DateTime',
      resolve: (w) => w.row.deadline,
      description: 'When it times out.',
    }),
    createdAt: t.field({
      type: 'DateTime',
      resolve: (w) => w.row.createdAt,
      description: 'When it started.',
    }),
    resolvedAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (w) => w.row.resolvedAt,
      description: 'When the terminal state was recorded.',
    }),
  }),
});

const UnknownWaitRef = builder.objectRef<UnknownWait>('UnknownWait').implement({
  description: "No wait with this id in the caller's scope.",
  fields: (t) => ({ waitId: t.exposeID('waitId', { description: 'The id asked for.' }) }),
});

const PendingWaitsLimitedRef = builder
  .objectRef<PendingWaitsLimited>('PendingWaitsLimited')
  .implement({
    description:
      'No wait was started, and nothing written: the credential already has `limit` pending waits (not settled, deadline not passed). Not an outcome of any wait; start again once one of them has ended.',
    fields: (t) => ({
      limit: t.exposeInt('limit', {
        description:
          'The most pending waits one credential may have (SWITCHBOARD_MAX_PENDING_WAITS).',
      }),
      pending: t.exposeInt('pending', {
        description: 'Its pending waits when this one was asked for.',
      }),
    }),
  });

const WaitResult = builder.unionType('WaitResult', {
  description: 'A wait, or why there is none.',
  types: [WaitRef, ScopeGapRef, UnknownAgentRef, UnknownWaitRef, PendingWaitsLimitedRef],
  resolveType: byType,
});

const WaitInputRef = builder.inputType('WaitInput', {
  description:
    'What to wait for. Name one agent (agentId) or several (agentIds): the first to settle wins.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ description: 'The agent to wait for.' }),
    agentIds: t.idList({ description: 'Several agents, each pinned separately (up to 20).' }),
    todoId: t.id({
      description: "The work to pin; defaults to each agent's current claimed todo.",
    }),
    accept: t.field({
      type: [LivenessEnum],
      required: true,
      description: 'Settled states that satisfy it (not UNREACHABLE or UNKNOWN).',
    }),
    timeoutMs: t.int({ required: true, description: 'Required; at most 3600000.' }),
  }),
});

type WaitInputShape = typeof WaitInputRef.$inferInput;

function toWaitInput(input: WaitInputShape): WaitInput {
  const agentIds = [...(input.agentId != null ? [input.agentId] : []), ...(input.agentIds ?? [])];
  if ((input.agentId != null) === (input.agentIds != null)) {
    throw new InputError('name exactly one of agentId or agentIds', 'agentId');
  }
  return {
    goalId: input.goalId,
    agentIds,
    todoId: input.todoId ?? null,
    accept: input.accept,
    timeoutMs: input.timeoutMs,
  };
}

/**
 * Starts a wait, unless the caller already has its most pending waits: then the typed refusal
 * (counted in /metrics), and nothing written.
 */
async function startLimited(ctx: ContextOf<Caller>, input: WaitInputShape) {
  const wait = toWaitInput(input);
  const limit = limitsOf(ctx.deps.config).pendingWaits;
  const refused = await checkPendingWaits(ctx.db, ctx.caller, limit);
  if (!refused) return startWait(ctx.db, ctx.caller, wait);
  ctx.deps.refusals.refused('pendingWaits');
  return refused;
}

async function waitStream(
  ctx: ContextOf<Caller>,
  input: WaitInputShape | null | undefined,
  waitId: string | null | undefined,
): Promise<AsyncIterable<Wait | { type: string }>> {
  if ((input == null) === (waitId == null)) {
    throw new InputError('pass either input (to start a wait) or waitId (to follow one)', 'waitId');
  }
  const found = input
    ? await startLimited(ctx, input)
    : await readWait(ctx.db, ctx.caller, String(waitId));
  if (found.type === 'Wait') return ctx.deps.waits.watch(found, input != null);
  return single(found);
}

builder.mutationFields((t) => ({
  startWait: t.withAuth({ reader: true }).field({
    type: WaitResult,
    description:
      'Starts a durable pinned wait; follow it with waitForAgent(waitId) or poll wait(id). Grants nothing.',
    args: {
      input: t.arg({ type: WaitInputRef, required: true, description: 'What to wait for.' }),
    },
    resolve: (_root, { input }, ctx) => startLimited(ctx, input),
  }),
}));

const WaitListingRef = listingRef<Wait, WaitListing>(
  'WaitListing',
  'The waits on one agent, newest first, or a scope gap with no rows. Each row is what wait(id) answers: a decided outcome never reads PENDING.',
  WaitRef,
  'Newest first, at most `limit`.',
);
builder.objectFields(WaitListingRef, (t) => ({
  agentId: t.exposeID('agentId', { description: 'The agent asked about.' }),
  omittedRowCount: t.exposeInt('omittedRowCount', {
    description: 'Rows left out by `limit`: a non-zero value means this list is not complete.',
  }),
}));

builder.queryFields((t) => ({
  waits: t.withAuth({ reader: true }).field({
    type: WaitListingRef,
    description:
      'The waits that target an agent (as any of their targets), newest first; pending ones are settled first. Scoped like wait(id). An agent never registered to the goal is BAD_USER_INPUT. Computed in a constant number of SQL statements.',
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({
        required: true,
        description: 'An agent registered to the goal (retired ones included).',
      }),
      status: t.arg({
        type: WaitStatusEnum,
        description:
          'Only waits in this state now (PENDING: the ones still open); all when omitted.',
      }),
      limit: t.arg.int({
        defaultValue: DEFAULT_WAITS_LIMIT,
        description: `At most this many rows, 1 to ${MAX_WAITS_LIMIT}.`,
      }),
    },
    resolve: (_root, args, { db, caller }) => listWaits(db, caller, args),
  }),
  wait: t.withAuth({ reader: true }).field({
    type: WaitResult,
    description: 'A wait as it stands now (settled first if its outcome is already decided).',
    args: { id: t.arg.id({ required: true, description: 'The wait id.' }) },
    resolve: (_root, args, { db, caller }) => readWait(db, caller, args.id),
  }),
}));

builder.subscriptionFields((t) => ({
  waitForAgent: t.withAuth({ reader: true }).field({
    type: WaitResult,
    description:
      'Starts a wait (input) or follows one (waitId): emits it PENDING with its pins and baselines, then exactly one terminal state, then completes. Following a settled wait emits just its outcome.',
    args: {
      input: t.arg({ type: WaitInputRef, description: 'Start a new wait.' }),
      waitId: t.arg.id({
        description: 'Follow an existing wait (after a reconnect, on any instance).',
      }),
    },
    subscribe: (_root, args, ctx) => waitStream(ctx, args.input, args.waitId ?? null),
    resolve: (value) => value as Wait,
  }),
}));
