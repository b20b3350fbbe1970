import type { ObjectRef } from '@pothos/core';
import type { callerKinds } from '../core/caller.ts';
import type { Listing } from '../core/results.ts';
import type { ScopeGap, scopeGapReasons } from '../core/scope.ts';
import type { RetentionGap } from '../events/sequence.ts';
import { builder } from './builder.ts';

/**
 * Schema types every domain returns: the scope gap, the caller kind, and the listing shape
 * (a goal's rows, or none and the scope gap that explains why).
 */

export const ScopeGapReasonEnum = builder.enumType('ScopeGapReason', {
  description: 'Why a goal is not visible to the caller.',
  values: {
    AUDIENCE_NOT_AUTHORIZED: {
      description:
        'The credential does not cover this goal. Also the answer for a goal that does not exist: the two are deliberately indistinguishable.',
    },
    UNKNOWN: {
      description:
        'Membership could not be classified. Never the answer to a request without a credential: that is refused before any scope check, with HTTP 401 and UNAUTHENTICATED.',
    },
    NOT_OWN_LEDGER: {
      description:
        "A PEER asked for another agent's evidence ledger (or its stream): a peer reads only its own. The goal is in scope; this says nothing about the other agent's rows.",
    },
  } satisfies Record<(typeof scopeGapReasons)[number], unknown>,
});

export const ScopeGapRef = builder.objectRef<ScopeGap>('ScopeGap').implement({
  description:
    "A goal outside the caller's scope. Comes with zero rows; it never reveals whether the goal exists.",
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal that was asked about, echoed back.' }),
    reason: t.field({
      type: ScopeGapReasonEnum,
      resolve: (gap) => gap.reason,
      description: 'Why.',
    }),
  }),
});

export const RetentionGapRef = builder.objectRef<RetentionGap>('RetentionGap').implement({
  description:
    'A stream resumed from before what retention keeps (docs/operations.md, "Retention"): items after `after` were removed. Re-read the current state (the directory, the inbox), then resume after `resumeAfter`. The stream ends with it.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    after: t.expose('after', {
      type: 'Seq',
      description: 'The cursor the stream was resumed from.',
    }),
    resumeAfter: t.expose('resumeAfter', {
      type: 'Seq',
      description: 'The oldest cursor the stream resumes from without missing an item.',
    }),
  }),
});

export const CallerKindEnum = builder.enumType('CallerKind', {
  description: 'What a credential lets its holder be.',
  values: {
    ADMIN: { description: 'An operator: registry writes and credentials; reads everything.' },
    STEWARD: { description: 'The agent a person talks to: the goals bound to its channel.' },
    PEER: { description: 'A registered agent: its goal plus goals delegated to it.' },
    PROVIDER: { description: 'A presence provider: reports for its goals, reads nothing else.' },
  } satisfies Record<(typeof callerKinds)[number], unknown>,
});

/**
 * A listing type `name`: `goalId`, `rows` of `row`, and `scopeGap`. Add fields of its own with
 * `builder.objectFields(ref, …)`.
 */
export function listingRef<Row, L extends Listing<Row> = Listing<Row>>(
  name: string,
  description: string,
  // biome-ignore lint/suspicious/noExplicitAny: any object type of the schema with rows of this shape
  row: ObjectRef<any, Row>,
  rowsDescription: string,
) {
  return builder.objectRef<L>(name).implement({
    description,
    fields: (t) => ({
      goalId: t.id({ resolve: (l) => l.goalId, description: 'The goal asked about.' }),
      rows: t.field({ type: [row], resolve: (l): Row[] => l.rows, description: rowsDescription }),
      scopeGap: t.field({
        type: ScopeGapRef,
        nullable: true,
        resolve: (l) => l.scopeGap,
        description: "Set when the goal is not in the caller's scope; rows is then empty.",
      }),
    }),
  });
}
