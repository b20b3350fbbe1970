/** External facts: recordExternalEvent (a merged pull request) and the goal's recorded facts. */
import { builder } from '../../graphql/builder.ts';
import { listingRef, ScopeGapRef } from '../../graphql/shared.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { UnknownAgentRef } from '../../registry/graphql/agents.ts';
import { type ExternalEvent, listExternalEvents, recordExternalEvent } from '../external.ts';
import { type ExternalEventKind, type ExternalEventRow, externalEventKinds } from '../tables.ts';
import { ActorRef, AGENT_ID } from './write.ts';

const ExternalEventKindEnum = builder.enumType('ExternalEventKind', {
  description: 'An external fact a resume condition can name.',
  values: describeValues(externalEventKinds, {
    PR_MERGED:
      'A pull request was merged in a repository; satisfies `pr_merged:` conditions naming that repository and number.',
  } satisfies Record<ExternalEventKind, string>),
});

const ExternalFactRef = builder.objectRef<ExternalEventRow>('ExternalFact').implement({
  description:
    'An external fact recorded in a goal, as its recorder observed it. Switchboard does not check the forge: the fact is as good as the credential that recorded it.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Server-assigned id.' }),
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    kind: t.expose('kind', { type: ExternalEventKindEnum, description: 'What happened.' }),
    repository: t.exposeString('repository', {
      description: 'The canonical repository identity (`git:host/owner/repo`).',
    }),
    ref: t.exposeString('ref', { description: 'PR_MERGED: the pull request number.' }),
    observedAt: t.expose('observedAt', {
      type: 'DateTime',
      description: "When the recorder saw it (the recorder's clock).",
    }),
    recordedAt: t.expose('recordedAt', { type: 'DateTime', description: 'When it was recorded.' }),
    recordedBy: t.field({
      type: ActorRef,
      resolve: (e) => ({ kind: e.recordedByKind, agentId: e.recordedByAgent }),
      description: 'Who recorded it.',
    }),
  }),
});

const ExternalEventRef = builder.objectRef<ExternalEvent>('ExternalEvent').implement({
  description: 'The answer to recordExternalEvent: the fact, and the live todos waiting for it.',
  fields: (t) => ({
    fact: t.field({ type: ExternalFactRef, resolve: (e) => e.row, description: 'The fact.' }),
    waitingTodoIds: t.exposeIDList('waitingTodoIds', {
      description:
        'Live todos with a `pr_merged:` condition this fact satisfies, at the time it was recorded (empty on a replay). Their condition holds now; that does not make them runnable (read `frontier`).',
    }),
    replayed: t.exposeBoolean('replayed', {
      description: 'The fact had been recorded already: this is the original; nothing was written.',
    }),
  }),
});

const ExternalFactListingRef = listingRef<ExternalEventRow>(
  'ExternalFactListing',
  "A goal's recorded external facts, or a scope gap with no rows.",
  ExternalFactRef,
  'Oldest first.',
);

const RecordExternalEventResult = builder.unionType('RecordExternalEventResult', {
  description: 'The recorded fact, or why not.',
  types: [ExternalEventRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});

const RecordExternalEventInput = builder.inputType('RecordExternalEventInput', {
  description: 'An external fact to record in a goal.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ description: AGENT_ID }),
    kind: t.field({ type: ExternalEventKindEnum, required: true, description: 'What happened.' }),
    repository: t.string({
      required: true,
      description:
        'The repository, without credentials: `git:github.com/owner/repo` (an https or `git@host:` URL is accepted and stored in that form; a URL with credentials is refused).',
    }),
    ref: t.string({
      required: true,
      description: 'PR_MERGED: the pull request number (`123` or `#123`).',
    }),
    observedAt: t.field({
      type: 'DateTime',
      required: true,
      description: 'When it was observed; not in the future.',
    }),
  }),
});

builder.queryFields((t) => ({
  externalFacts: t.withAuth({ reader: true }).field({
    type: ExternalFactListingRef,
    description: "The goal's recorded external facts (merged pull requests), oldest first.",
    args: { goalId: t.arg.id({ required: true, description: 'The goal.' }) },
    resolve: (_root, args, { db, caller }) => listExternalEvents(db, caller, args.goalId),
  }),
}));

builder.mutationFields((t) => ({
  recordExternalEvent: t.withAuth({ reader: true }).field({
    type: RecordExternalEventResult,
    description:
      'Records an external fact (PR_MERGED) by an ADMIN, STEWARD or PEER of the goal, with an EXTERNAL_EVENT ledger row, moving the work sequence. The same fact again returns the original and writes nothing.',
    args: {
      input: t.arg({
        type: RecordExternalEventInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => recordExternalEvent(db, caller, input),
  }),
}));
