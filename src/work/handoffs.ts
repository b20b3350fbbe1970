/**
 * Bounded handoffs: a todo handed to a named peer, or left unclaimed for any qualified peer,
 * with one packet from which the receiver can reconstruct the work without a transcript.
 */

import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Actor, Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import { refuse } from '../core/transaction.ts';
import {
  boundedList,
  LIMITS,
  screenText,
  validateId,
  validateOptionalId,
} from '../core/validate.ts';
import type { Db, Tx } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { type DeliveryRefused, deliver } from '../delivery/deliver.ts';
import type { Delivery } from '../delivery/read.ts';
import type { LedgerEvent } from '../ledger/append.ts';
import { ledgerEventsTable } from '../ledger/tables.ts';
import type { UnknownAgent } from '../registry/registry.ts';
import { activeAgentSql, checkGoalScope } from '../registry/scope.ts';
import { handoffEvent } from './events.ts';
import { type FrontierTodo, loadFrontier } from './frontier.ts';
import {
  covers,
  type FrontierGuard,
  formatDecisionScope,
  parseDecisionScope,
  parseResumeCondition,
} from './rules.ts';
import { gateStateSql } from './sql.ts';
import {
  capabilitiesTable,
  type GateGranularity,
  type GateKind,
  gatesTable,
  type HandoffRow,
  handoffsTable,
  type TodoStatus,
  workspacesTable,
} from './tables.ts';
import type {
  ClaimedByOther,
  GateState,
  IllegalTransition,
  Lease,
  LeaseHeld,
  Todo,
  UnknownTodo,
} from './values.ts';
import { leaseOf } from './values.ts';
import {
  checkLifecycleAuthority,
  checkLive,
  loadTodo,
  transitionWithEvent,
  workWrite,
} from './write.ts';

export interface HandoffTodoInput {
  goalId: string;
  todoId: string;
  /** The receiver; omitted: unclaimed for any qualified peer. */
  to?: string | null;
  /** ADMIN/STEWARD: the agent handing off. */
  agentId?: string | null;
  nextAction: string;
  validation: string;
  stopCondition: string;
  omitted: readonly string[];
}

/** How many evidence refs a packet carries (the newest first). */
export const MAX_PACKET_EVIDENCE = 20;

export const evidenceFreshnesses = ['FRESH', 'STALE', 'UNKNOWN'] as const;
export type EvidenceFreshness = (typeof evidenceFreshnesses)[number];

/** An evidence ref recorded on the todo, with how fresh it was when handed off. */
export interface PacketEvidence {
  readonly ref: string;
  readonly ledgerSeq: string;
  readonly recordedAt: string;
  /**
   * FRESH: recorded at or after the sender declared the workspace (revision) it hands off
   * from; STALE: recorded before it, so it may not hold for that revision; UNKNOWN: the
   * sender declared no workspace.
   */
  readonly freshness: EvidenceFreshness;
}

/** Why a gate applies to the todo. */
export const gateApplications = ['COVERS_REQUIRED_SCOPE', 'RESUME_CONDITION'] as const;
export type GateApplication = (typeof gateApplications)[number];

export interface PacketGate {
  readonly gateId: string;
  readonly scope: string;
  readonly state: GateState;
  readonly applies: GateApplication;
}

/** What the sender's view held at handoff, stored once in the packet. */
export interface PacketSnapshot {
  readonly title: string;
  readonly taskClass: string;
  readonly status: TodoStatus;
  readonly requiredCapability: string | null;
  readonly requiredDecisionScopes: string[];
  readonly dependsOn: string[];
  readonly resumeWhen: string[];
  readonly taskRepository: string | null;
  readonly writeScope: string[];
  readonly gates: PacketGate[];
  readonly evidence: PacketEvidence[];
}

/** What a handoff never does, stated in every packet so no reader infers otherwise. */
export const AUTHORITY_BOUNDARY = [
  'The handoff moved the claim (a soft owner) and nothing else: it grants no authority over any gate.',
  "The sender's lease ended with the handoff and was not transferred: acquire a lease of your own (a new fence) before an effectful run.",
  'A decision scope the todo requires is authorized only by its gate; a capability or a workspace is a declaration, not a permission.',
  'What the packet omits or marks private must be re-acquired through a legal route (a gate, the owner, a delivery), never guessed or copied from a transcript.',
] as const;

export interface Handoff {
  readonly type: 'Handoff';
  readonly row: HandoffRow;
  readonly packet: PacketSnapshot;
  /** The todo after the handoff. */
  readonly todo: Todo;
  readonly event: LedgerEvent;
  /** The CONTEXT delivery to the named receiver; null for an unnamed handoff. */
  readonly delivery: Delivery | null;
}

export const handoffRefusalReasons = [
  'UNKNOWN_RECEIVER',
  'RECEIVER_LACKS_CAPABILITY',
  'DELIVERY_REFUSED',
] as const;
export type HandoffRefusalReason = (typeof handoffRefusalReasons)[number];

export interface HandoffRefused {
  readonly type: 'HandoffRefused';
  readonly reason: HandoffRefusalReason;
  readonly goalId: string;
  readonly todoId: string;
  readonly receiver: string | null;
  /** RECEIVER_LACKS_CAPABILITY: the capability the todo requires. */
  readonly capability: string | null;
  /** DELIVERY_REFUSED: why the CONTEXT delivery could not be written (e.g. AGENT_BLOCKED). */
  readonly delivery: DeliveryRefused | null;
}

export type HandoffTodoResult =
  | Handoff
  | HandoffRefused
  | ScopeGap
  | UnknownAgent
  | UnknownTodo
  | ClaimedByOther
  | IllegalTransition
  | LeaseHeld;

const text = (field: string, value: string) => screenText(field, value, LIMITS.summary);

/**
 * Hands a live todo to `to`, or leaves it unclaimed for any qualified peer. Validated in
 * full first; then one transaction: the claim moves (or is dropped), the sender's lease
 * ends (it is never transferred: the receiver acquires its own, with a new fence), the
 * packet is written, a HANDOFF ledger row is appended and, for a named receiver, a CONTEXT
 * delivery is written through the delivery service. A refusal (the receiver is unknown or
 * lacks the capability the todo requires, its delivery is refused, the todo is not live,
 * another agent claims or leases it) writes nothing.
 */
export async function handoffTodo(
  db: Db,
  caller: Caller,
  input: HandoffTodoInput,
): Promise<HandoffTodoResult> {
  const goalId = validateId('goalId', input.goalId);
  const todoId = validateId('todoId', input.todoId);
  const to = validateOptionalId('to', input.to);
  const agentId = validateOptionalId('agentId', input.agentId);
  const nextAction = text('nextAction', input.nextAction);
  const validation = text('validation', input.validation);
  const stopCondition = text('stopCondition', input.stopCondition);
  const omitted = boundedList('omitted', input.omitted, LIMITS.listEntries, (v) =>
    screenText('omitted', v, LIMITS.reason),
  );
  return workWrite<Handoff>(db, caller, goalId, agentId, async (tx, actor, seq) => {
    if (to !== null && to === actor.agentId) {
      throw new InputError(
        'to must name another agent: an agent does not hand off to itself',
        'to',
      );
    }
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'HANDOFF');
    checkLifecycleAuthority(todo, actor);
    if (todo.leaseState === 'ACTIVE' && todo.leaseHolder !== actor.agentId) {
      refuse({ type: 'LeaseHeld', goalId, todoId, lease: leaseOf(todo) } satisfies LeaseHeld);
    }
    if (to !== null) await checkReceiver(tx, todo, to);
    const id = `hof_${randomUUID()}`;
    const packet = await snapshot(tx, todo, actor);
    const { todo: updated, event } = await transitionWithEvent(
      tx,
      seq,
      actor,
      todo,
      'HANDOFF',
      {
        claimedBy: to,
        claimedAt: to === null ? null : sql`now()`,
        leaseHolder: null,
        leaseExpiresAt: null,
      },
      {
        handoffId: id,
        to,
        previousOwner: todo.claimedBy,
        ...(todo.leaseState === 'NONE' ? {} : { endedLeaseFence: String(todo.leaseFence) }),
      },
      (after) => handoffEvent(actor, after, { id, to }),
    );
    const delivery =
      to === null
        ? null
        : await deliverPacket(tx, caller, todo, to, id, {
            nextAction,
            validation,
            stopCondition,
            omitted,
          });
    const [row] = await tx
      .insert(handoffsTable)
      .values({
        id,
        goalId,
        todoId,
        fromAgent: actor.agentId,
        toAgent: to,
        nextAction,
        validation,
        stopCondition,
        omitted,
        repository: packet.workspace?.repository ?? null,
        worktree: packet.workspace?.worktree ?? null,
        revision: packet.workspace?.revision ?? null,
        workspaceDeclaredAt: packet.workspace?.declaredAt ?? null,
        packet: packet.snapshot as unknown as Record<string, unknown>,
        deliveryId: delivery?.row.id ?? null,
        workSeq: seq,
        ledgerSeq: event.seq,
        createdByKind: actor.kind,
        credentialId: actor.credentialId,
      })
      .returning();
    if (!row) throw new Error('handoff was written but cannot be read');
    return { type: 'Handoff', row, packet: packet.snapshot, todo: updated, event, delivery };
  });
}

/** The named receiver is an active agent of the goal and declares the capability the todo needs. */
async function checkReceiver(tx: Tx, todo: Todo, to: string): Promise<void> {
  const c = capabilitiesTable;
  const [receiver] = rowsOf<{ active: boolean; capabilities: string[] | null }>(
    await tx.execute(sql`select ${activeAgentSql(todo.goalId, to)} as active,
      (select ${c.capabilities} from ${c}
        where ${c.goalId} = ${todo.goalId} and ${c.agentId} = ${to}) as capabilities`),
  );
  const refused = (reason: HandoffRefusalReason, capability: string | null = null) =>
    refuse({
      type: 'HandoffRefused',
      reason,
      goalId: todo.goalId,
      todoId: todo.id,
      receiver: to,
      capability,
      delivery: null,
    } satisfies HandoffRefused);
  if (!receiver?.active) refused('UNKNOWN_RECEIVER');
  const needed = todo.requiredCapability;
  if (needed !== null && !(receiver?.capabilities ?? []).includes(needed)) {
    refused('RECEIVER_LACKS_CAPABILITY', needed);
  }
}

/**
 * What the sender's view holds at handoff: the todo's routing fields, the gates that apply
 * (covering a scope it requires, or named by a `gate_resolved:` condition) with their state,
 * the evidence recorded on it with its freshness, and the sender's declared workspace.
 */
async function snapshot(tx: Tx, todo: Todo, actor: Actor) {
  const w = workspacesTable;
  const e = ledgerEventsTable;
  const g = gatesTable;
  const [workspaceRows, evidenceRows, gateRows] = await Promise.all([
    actor.agentId === null
      ? Promise.resolve([])
      : tx
          .select()
          .from(w)
          .where(and(eq(w.goalId, todo.goalId), eq(w.agentId, actor.agentId))),
    tx
      .select({ seq: e.seq, recordedAt: e.recordedAt, refs: e.evidenceRefs })
      .from(e)
      .where(
        and(
          eq(e.goalId, todo.goalId),
          eq(e.todoId, todo.id),
          sql`cardinality(${e.evidenceRefs}) > 0`,
        ),
      )
      .orderBy(desc(e.seq))
      .limit(MAX_PACKET_EVIDENCE),
    tx
      .select({
        id: g.id,
        kind: g.kind,
        granularity: g.granularity,
        scopeKey: g.scopeKey,
        state: gateStateSql,
      })
      .from(g)
      .where(eq(g.goalId, todo.goalId)),
  ]);
  const workspace = workspaceRows[0] ?? null;
  const evidence: PacketEvidence[] = [];
  for (const row of evidenceRows) {
    for (const ref of row.refs) {
      if (evidence.length >= MAX_PACKET_EVIDENCE) break;
      evidence.push({
        ref,
        ledgerSeq: String(row.seq),
        recordedAt: row.recordedAt.toISOString(),
        freshness:
          workspace === null
            ? 'UNKNOWN'
            : row.recordedAt.getTime() >= workspace.declaredAt.getTime() - 1
              ? 'FRESH'
              : 'STALE',
      });
    }
  }
  const taken: PacketSnapshot = {
    title: todo.title,
    taskClass: todo.taskClass,
    status: todo.status,
    requiredCapability: todo.requiredCapability,
    requiredDecisionScopes: todo.requiredDecisionScopes,
    dependsOn: todo.dependsOn,
    resumeWhen: todo.resumeWhen,
    taskRepository: todo.taskRepository,
    writeScope: todo.writeScope,
    gates: applyingGates(todo, gateRows),
    evidence,
  };
  return { snapshot: taken, workspace };
}

/** The gates that apply to a todo: covering a scope it requires, or named by a condition. */
export function applyingGates(
  todo: Pick<Todo, 'requiredDecisionScopes' | 'resumeWhen'>,
  gates: readonly {
    id: string;
    kind: GateKind;
    granularity: GateGranularity;
    scopeKey: string;
    state: GateState;
  }[],
): PacketGate[] {
  const required = todo.requiredDecisionScopes.map((s) =>
    parseDecisionScope('requiredDecisionScopes', s),
  );
  const named = new Set(
    todo.resumeWhen
      .map((c) => parseResumeCondition('resumeWhen', c))
      .flatMap((c) => (c.kind === 'gate_resolved' ? [c.gateId] : [])),
  );
  const applying: PacketGate[] = [];
  for (const gate of gates) {
    const applies: GateApplication | null = required.some((r) => covers(gate, r))
      ? 'COVERS_REQUIRED_SCOPE'
      : named.has(gate.id)
        ? 'RESUME_CONDITION'
        : null;
    if (applies === null) continue;
    applying.push({
      gateId: gate.id,
      scope: formatDecisionScope(gate),
      state: gate.state,
      applies,
    });
  }
  return applying;
}

/** The CONTEXT delivery to the named receiver, through the delivery service, in this transaction. */
async function deliverPacket(
  tx: Tx,
  caller: Caller,
  todo: Todo,
  to: string,
  handoffId: string,
  /** The screened texts: the body carries what the packet stores, never the raw input. */
  text: { nextAction: string; validation: string; stopCondition: string; omitted: string[] },
): Promise<Delivery> {
  const result = await deliver(tx, caller, {
    goalId: todo.goalId,
    to,
    todoId: todo.id,
    kind: 'CONTEXT',
    subject: `Handoff: ${todo.title}`.slice(0, 200),
    body: [
      `Handoff ${handoffId} of todo ${todo.id}. Read the packet (it evaluates the guards for you now):`,
      `  handoff(goalId: "${todo.goalId}", handoffId: "${handoffId}")`,
      `Next action: ${text.nextAction}`,
      `Validation: ${text.validation}`,
      `Stop condition: ${text.stopCondition}`,
      `Omitted or private: ${text.omitted.length === 0 ? 'nothing' : text.omitted.join('; ')}`,
    ].join('\n'),
    idempotencyKey: `handoff:${handoffId}`,
  });
  if (result.type === 'Delivery') return result;
  return refuse({
    type: 'HandoffRefused',
    reason: 'DELIVERY_REFUSED',
    goalId: todo.goalId,
    todoId: todo.id,
    receiver: to,
    capability: null,
    delivery: result.type === 'DeliveryRefused' ? result : null,
  } satisfies HandoffRefused);
}

// ---- reading a packet ------------------------------------------------------------------

/** A packet as one reader reads it: the stored packet, and the guards for the reader now. */
export interface HandoffRead {
  readonly type: 'HandoffRead';
  readonly row: HandoffRow;
  readonly packet: PacketSnapshot;
  /** The agent the guards were evaluated for. */
  readonly readFor: string;
  readonly status: TodoStatus;
  /** The todo is still live (OPEN or DEFERRED): only then do `runnable` and `guards` apply. */
  readonly live: boolean;
  readonly runnable: boolean;
  readonly guards: FrontierGuard[];
  readonly claimedBy: string | null;
  readonly lease: Lease | null;
  /** The gates that apply now, with their state now. */
  readonly gates: PacketGate[];
  readonly capabilities: string[];
  readonly workSeq: string;
}

export interface UnknownHandoff {
  readonly type: 'UnknownHandoff';
  readonly goalId: string;
  readonly handoffId: string;
}

export type HandoffReadResult = HandoffRead | UnknownHandoff | ScopeGap | UnknownAgent;

/**
 * One handoff packet, with the guards evaluated for `agentId` as they are now (the reader's
 * frontier, not the sender's view at handoff): a PEER reads for itself unless it names
 * another agent; an ADMIN or STEWARD reads for the named receiver unless it names one.
 * One snapshot, a constant number of statements.
 */
export async function readHandoff(
  db: Db,
  caller: Caller | null,
  goalIdArg: string,
  handoffIdArg: string,
  agentIdArg?: string | null,
): Promise<HandoffReadResult> {
  const goalId = validateId('goalId', goalIdArg);
  const handoffId = validateId('handoffId', handoffIdArg);
  const named = validateOptionalId('agentId', agentIdArg);
  return db.transaction(
    async (tx) => {
      const gap = await checkGoalScope(tx, caller, goalId);
      if (gap) return gap;
      const [row] = await tx
        .select()
        .from(handoffsTable)
        .where(and(eq(handoffsTable.goalId, goalId), eq(handoffsTable.id, handoffId)));
      if (!row) return { type: 'UnknownHandoff', goalId, handoffId } satisfies UnknownHandoff;
      const readFor = named ?? (caller?.kind === 'PEER' ? caller.agentId : row.toAgent);
      if (readFor === null) {
        throw new InputError(
          'agentId is required: an unnamed handoff is read for the agent that would take it',
          'agentId',
        );
      }
      const loaded = await loadFrontier(tx, goalId, readFor);
      if (loaded.type === 'UnknownAgent') return loaded;
      const packet = row.packet as unknown as PacketSnapshot;
      const frontierRow = loaded.frontier.rows.find((r) => r.todo.id === row.todoId);
      const todo: FrontierTodo | undefined = frontierRow?.todo;
      const status: TodoStatus = todo?.status ?? loaded.retired.get(row.todoId)?.status ?? 'DONE';
      return {
        type: 'HandoffRead',
        row,
        packet,
        readFor,
        status,
        live: todo !== undefined,
        runnable: frontierRow?.runnable ?? false,
        guards: frontierRow?.guards ?? [],
        claimedBy: todo?.claimedBy ?? null,
        lease: todo ? leaseOf(todo) : null,
        gates: applyingGates(todo ?? packet, loaded.gates),
        capabilities: loaded.frontier.capabilities,
        workSeq: loaded.frontier.seq,
      } satisfies HandoffRead;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
