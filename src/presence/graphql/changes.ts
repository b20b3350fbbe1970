/** Presence changes: the PresenceChange type and presenceChanged, a goal's changes in order. */
import { builder } from '../../graphql/builder.ts';
import { RetentionGapRef, ScopeGapRef } from '../../graphql/shared.ts';
import { type PresenceChange, presenceChanges } from '../read.ts';
import { LivenessEnum, PresenceRef } from './presence.ts';

const PresenceChangeRef = builder.objectRef<PresenceChange>('PresenceChange').implement({
  description:
    'One change of liveness or occupant in a goal, in sequence order. Out of scope: a single change carrying scopeGap, then the end; resumed from before what retention kept: a single change carrying retentionGap, then the end.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    agentId: t.exposeID('agentId', {
      nullable: true,
      description: 'The agent; null with scopeGap.',
    }),
    seq: t.expose('seq', {
      type: 'Seq',
      nullable: true,
      description: "Position in the goal's presence stream; pass it as `after` to resume.",
    }),
    presence: t.expose('presence', {
      type: PresenceRef,
      nullable: true,
      description: 'The presence after the change.',
    }),
    previousLiveness: t.expose('previousLiveness', {
      type: LivenessEnum,
      nullable: true,
      description: 'Liveness before the change; null for a new occupant or location.',
    }),
    scopeGap: t.expose('scopeGap', {
      type: ScopeGapRef,
      nullable: true,
      description: 'Set when the goal is out of scope.',
    }),
    retentionGap: t.expose('retentionGap', {
      type: RetentionGapRef,
      nullable: true,
      description:
        'Set when `after` is older than the changes kept: re-read the directory, then resume after its resumeAfter.',
    }),
  }),
});

builder.subscriptionFields((t) => ({
  presenceChanged: t.withAuth({ reader: true }).field({
    type: PresenceChangeRef,
    description:
      'Every change of liveness or occupant in a goal, in order, exactly once; resumable with `after`. Scoped like the directory.',
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentIds: t.arg.idList({ description: 'Only these agents; all when omitted.' }),
      after: t.arg({
        type: 'Seq',
        description: 'Resume after this seq; omitted means changes from now on.',
      }),
    },
    subscribe: (_root, args, { db, deps, caller }) =>
      presenceChanges(
        db,
        deps.presence,
        caller,
        args.goalId,
        args.agentIds ?? null,
        args.after ?? null,
      ),
    resolve: (change) => change,
  }),
}));
