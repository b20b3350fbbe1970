/**
 * evidenceLedger: the EvidenceLedgerPacket an agent reads before it replans or hands off, with
 * its parts (scope, filters, page, other-agent frontier, reader hints).
 */

import { builder } from '../../graphql/builder.ts';
import { CallerKindEnum, ScopeGapRef } from '../../graphql/shared.ts';
import { describeValues } from '../../graphql/values.ts';
import { type HandoffState, handoffStates, type OtherAgentFrontierRow } from '../frontier.ts';
import { LEDGER_LIMITS } from '../limits.ts';
import {
  type EvidenceLedgerPacket,
  evidenceLedger,
  type LedgerReadPurpose,
  ledgerReadPurposes,
  type RequiredRead,
} from '../read.ts';
import { LedgerEventKindEnum, LedgerEventRef } from './events.ts';

const HandoffStateEnum = builder.enumType('HandoffState', {
  description:
    "Whether a handoff is pending for an agent, judged from the ledger's rows alone. Not proof that anyone took or acted on the work.",
  values: describeValues(handoffStates, {
    NONE: 'No pending handoff: none names it, or it recorded material work after the latest one.',
    OUTGOING:
      'Its latest material row is a handoff it made to another agent: it has handed work off and done nothing material since.',
    INCOMING:
      'A handoff to it is newer than its latest material row: it received work and has not recorded acting on it.',
  } satisfies Record<HandoffState, string>),
});

const LedgerReadPurposeEnum = builder.enumType('LedgerReadPurpose', {
  description: 'An action an agent must read its ledger before.',
  values: describeValues(ledgerReadPurposes, {
    AUTONOMOUS_REPLAN: 'Replanning on its own initiative.',
    SUCCESSOR_REPLAN: 'Planning the successor of finished or superseded work.',
    HANDOFF: 'Handing work to another agent.',
  } satisfies Record<LedgerReadPurpose, string>),
});

const OtherAgentDetailEnum = builder.enumType('OtherAgentDetail', {
  description: 'How much of other agents a packet shows. Never their rows.',
  values: {
    COMPRESSED_FRONTIER: { description: 'One bounded otherAgentFrontier row per other agent.' },
    OMITTED: { description: 'Nothing (includeOtherAgentFrontier was false, or a scope gap).' },
  },
});

const LedgerSourcesRef = builder
  .objectRef<EvidenceLedgerPacket['source']>('LedgerSources')
  .implement({
    description: 'Which sources the packet was built from.',
    fields: (t) => ({
      eventLog: t.exposeBoolean('eventLog', { description: 'The append-only ledger rows.' }),
      workGraph: t.exposeBoolean('workGraph', {
        description: 'Claims, lanes, dependencies and gates, for scoping and the frontier.',
      }),
      deliveries: t.exposeBoolean('deliveries', {
        description: 'Delivery rows. False until deliveries write to the ledger.',
      }),
    }),
  });

const LedgerScopeRef = builder.objectRef<EvidenceLedgerPacket['scope']>('LedgerScope').implement({
  description: 'What the packet shows of whom.',
  fields: (t) => ({
    audience: t.expose('audience', {
      type: CallerKindEnum,
      nullable: true,
      description: 'The caller kind that read it (ADMIN, STEWARD or PEER).',
    }),
    currentAgentDetail: t.exposeBoolean('currentAgentDetail', {
      description: "Whether the agent's own scoped rows are shown in detail (false on a gap).",
    }),
    otherAgentDetail: t.expose('otherAgentDetail', {
      type: OtherAgentDetailEnum,
      description: 'How other agents are shown. Never row by row.',
    }),
    lanePrefixes: t.exposeStringList('lanePrefixes', {
      description:
        "The path prefixes read from the agent's vision roleScope that define its lane; empty when it has none.",
    }),
  }),
});

const LedgerFiltersRef = builder
  .objectRef<EvidenceLedgerPacket['filters']>('LedgerFilters')
  .implement({
    description: 'The filters applied, echoed back so a packet can be read on its own.',
    fields: (t) => ({
      todoId: t.exposeID('todoId', { nullable: true, description: 'Only this todo.' }),
      eventKind: t.expose('eventKind', {
        type: LedgerEventKindEnum,
        nullable: true,
        description: 'Only this kind.',
      }),
      since: t.expose('since', {
        type: 'DateTime',
        nullable: true,
        description: 'Only rows recorded after this.',
      }),
      before: t.expose('before', {
        type: 'Seq',
        nullable: true,
        description: 'Only rows before this seq (a page further back).',
      }),
      limit: t.exposeInt('limit', { description: 'At most this many rows.' }),
      includeOtherAgentFrontier: t.exposeBoolean('includeOtherAgentFrontier', {
        description: 'Whether the other-agent frontier was asked for.',
      }),
    }),
  });

const LedgerPageRef = builder.objectRef<EvidenceLedgerPacket['page']>('LedgerPage').implement({
  description: 'Where the rows sit in the ledger, for paging back and streaming forward.',
  fields: (t) => ({
    headSeq: t.expose('headSeq', {
      type: 'Seq',
      description:
        "The goal ledger's last committed seq when the packet was read: subscribe to ledgerEvents with `after: headSeq` to continue without a gap.",
    }),
    olderCursor: t.expose('olderCursor', {
      type: 'Seq',
      nullable: true,
      description: 'Pass as `before` for the next older page; null when there is none.',
    }),
    hasOlder: t.exposeBoolean('hasOlder', {
      description:
        'Whether older rows pass the same scope and filters. A page without them is not the whole history.',
    }),
  }),
});

const OtherAgentFrontierRowRef = builder
  .objectRef<OtherAgentFrontierRow>('OtherAgentFrontierRow')
  .implement({
    description:
      'Another agent of the goal, compressed: enough to see the shared direction, never its rows or private trail. Grants nothing over its work.',
    fields: (t) => ({
      agentId: t.exposeID('agentId', { description: 'The other agent.' }),
      visionSummary: t.exposeString('visionSummary', {
        nullable: true,
        description: 'Where it says it is heading (its vision); null when it set none.',
      }),
      topTodoId: t.exposeID('topTodoId', {
        nullable: true,
        description: 'Its highest-priority live claimed todo.',
      }),
      topTodo: t.exposeString('topTodo', {
        nullable: true,
        description: 'That todo’s title. Not a promise that it is working on it now.',
      }),
      handoffState: t.expose('handoffState', {
        type: HandoffStateEnum,
        description: 'Whether a handoff to or from it is pending.',
      }),
      latestMaterialAt: t.expose('latestMaterialAt', {
        type: 'DateTime',
        nullable: true,
        description:
          'When it last recorded a material row; null when never. Not liveness: see presence.',
      }),
    }),
  });

export const RequiredReadRef = builder.objectRef<RequiredRead>('RequiredRead').implement({
  description: 'A read still owed before the actions in requiredBefore.',
  fields: (t) => ({
    query: t.exposeString('query', { description: 'The GraphQL field call to make.' }),
    command: t.string({
      nullable: true,
      resolve: (r) => r.command ?? null,
      description: 'The CLI command that makes the same read, where there is one.',
    }),
    reason: t.exposeString('reason', { description: 'Why it is required.' }),
  }),
});

const ReaderHintsRef = builder
  .objectRef<EvidenceLedgerPacket['readerHints']>('LedgerReaderHints')
  .implement({
    description:
      'What an agent must read before replanning or handing off. Hints about reads; they assign no work.',
    fields: (t) => ({
      requiredBefore: t.expose('requiredBefore', {
        type: [LedgerReadPurposeEnum],
        description: 'The actions this ledger read is required before.',
      }),
      nextRequiredReads: t.expose('nextRequiredReads', {
        type: [RequiredReadRef],
        description:
          'Reads still owed: the unfiltered first page when this read was filtered or paged, the next older page when no replan checkpoint of the agent is on this one and older rows exist, the frontier when it was left out. Empty when this read suffices.',
      }),
    }),
  });

const EvidenceLedgerPacketRef = builder
  .objectRef<EvidenceLedgerPacket>('EvidenceLedgerPacket')
  .implement({
    description:
      "agent_scoped_evidence_ledger_v0: one agent's thin chronology — its own rows in detail, other agents compressed — to read before replanning or handing off. A read model: it grants no claim, lease or priority, and it replaces neither todos nor status.",
    fields: (t) => ({
      schemaVersion: t.exposeString('schemaVersion', {
        description: '"agent_scoped_evidence_ledger_v0".',
      }),
      goalId: t.exposeID('goalId', { description: 'The goal.' }),
      agentId: t.exposeID('agentId', { description: 'The agent whose ledger this is.' }),
      generatedAt: t.expose('generatedAt', {
        type: 'DateTime',
        description: 'When it was read.',
      }),
      source: t.expose('source', {
        type: LedgerSourcesRef,
        description: 'What it was built from.',
      }),
      scope: t.expose('scope', {
        type: LedgerScopeRef,
        description: 'What it shows of whom.',
      }),
      filters: t.expose('filters', {
        type: LedgerFiltersRef,
        description: 'The filters applied.',
      }),
      events: t.expose('events', {
        type: [LedgerEventRef],
        description:
          "The newest `limit` rows of the agent's scope that pass the filters, oldest first. Empty on a scope gap.",
      }),
      page: t.expose('page', {
        type: LedgerPageRef,
        description: 'Cursors for older pages and for the stream.',
      }),
      otherAgentFrontier: t.expose('otherAgentFrontier', {
        type: [OtherAgentFrontierRowRef],
        description: 'Every other active agent of the goal, by id, compressed (at most 100).',
      }),
      omittedFrontierRowCount: t.exposeInt('omittedFrontierRowCount', {
        description: 'Other agents left out of otherAgentFrontier by its cap.',
      }),
      readerHints: t.expose('readerHints', {
        type: ReaderHintsRef,
        description: 'Reads required before replanning or handing off.',
      }),
      digest: t.exposeString('digest', {
        description:
          '`sha256:<hex>` of the canonical serialization of `events` (with goal and agent): the same read gives the same digest, any new row in it another. Cite it in recordReplanCheckpoint. Not a signature and not secret.',
      }),
      scopeGap: t.expose('scopeGap', {
        type: ScopeGapRef,
        nullable: true,
        description:
          "Set, with no rows, when the goal is out of the caller's scope or a PEER asked for another agent's ledger (NOT_OWN_LEDGER).",
      }),
    }),
  });

builder.queryFields((t) => ({
  evidenceLedger: t.withAuth({ reader: true }).field({
    type: EvidenceLedgerPacketRef,
    description:
      "One agent's scoped evidence ledger. Fails closed: an agent id the goal does not know (a host surface such as `codex` is not one) is BAD_USER_INPUT, never a fallback. A PEER reads only its own ledger (another agent's: scopeGap NOT_OWN_LEDGER); an ADMIN or STEWARD any agent's in its goals; a PROVIDER none.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({
        required: true,
        description: 'A registered (or delegated) agent id of the goal.',
      }),
      todoId: t.arg.id({
        description:
          "That todo's rows, plus goal-level gate rows that block it and goal-level blockers naming no todo (within the agent's scope).",
      }),
      since: t.arg({ type: 'DateTime', description: 'Only rows recorded after this instant.' }),
      eventKind: t.arg({ type: LedgerEventKindEnum, description: 'Only rows of this kind.' }),
      limit: t.arg.int({
        defaultValue: LEDGER_LIMITS.defaultLimit,
        description: `At most this many rows, 1 to ${LEDGER_LIMITS.maxLimit}.`,
      }),
      before: t.arg({
        type: 'Seq',
        description: 'Keyset cursor: only rows before this seq (page.olderCursor).',
      }),
      includeOtherAgentFrontier: t.arg.boolean({
        defaultValue: true,
        description: 'Include the compressed other-agent frontier.',
      }),
    },
    resolve: (_root, args, { db, caller, deps }) =>
      evidenceLedger(db, caller, args, deps.ledgerFrontiers),
  }),
}));
