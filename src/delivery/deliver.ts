/**
 * Delivering (docs/api.md, "Delivery, inbox and roster"): `deliver` validates its input, finds the
 * target (named, or from the sender's roster) and the thread, decides every refusal before
 * anything is written, answers a retried idempotency key with its original, and otherwise
 * writes the delivery (append.ts). Reading one is read.ts; following its outcome is follow.ts.
 */

import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import { redactSecrets } from '../core/privacy.ts';
import type { ScopeGap } from '../core/scope.ts';
import { screenText, validateId, validateText } from '../core/validate.ts';
import type { Db, Queryable } from '../db/database.ts';
import { currentPins, type Pin } from '../presence/pins.ts';
import { type BlockedKind, type Liveness, providersTable } from '../presence/tables.ts';
import { findAgent } from '../registry/registry.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { checkTodoInGoal } from '../work/reads.ts';
import { appendDelivery, findByKey, type NewDelivery, violates } from './append.ts';
import { bodyPreview } from './preview.ts';
import { currentDelivery, type Delivery } from './read.ts';
import { connectedTargets } from './roster.ts';
import { recipientIn, type Sender, senderOf } from './sender.ts';
import { type DeliveryKind, type DeliveryRow, deliveriesTable, type PinState } from './tables.ts';

/** Bounds (docs/api.md, "Delivery, inbox and roster": bodies are bounded; larger content goes in a durable artifact). */
export const MAX_BODY_BYTES = 16_384;
export const MAX_SUBJECT_CHARS = 200;
export const MAX_IDEMPOTENCY_KEY_CHARS = 128;
export const DEFAULT_TIMEOUT_MS = 3_600_000;
export const MAX_TIMEOUT_MS = 86_400_000;
/** Generous on purpose: an agent mid-turn may take minutes to look at its inbox. */
export const DEFAULT_ACTIVITY_WINDOW_MS = 600_000;

export interface DeliverInput {
  goalId: string;
  to?: string | null;
  todoId?: string | null;
  kind: DeliveryKind;
  subject: string;
  body: string;
  threadId?: string | null;
  replyTo?: string | null;
  idempotencyKey: string;
  activityWindowMs?: number | null;
  timeoutMs?: number | null;
}

export const refusalReasons = [
  'AGENT_BLOCKED',
  'SCOPE_GAP',
  'UNKNOWN_TARGET',
  'AMBIGUOUS_TARGET',
  'NOT_READY',
] as const;
export type RefusalReason = (typeof refusalReasons)[number];

export const notReadyReasons = ['TARGET_RETIRED', 'NO_CONNECTED_PEER'] as const;
export type NotReadyReason = (typeof notReadyReasons)[number];

export interface DeliveryRefused {
  readonly type: 'DeliveryRefused';
  readonly reason: RefusalReason;
  readonly goalId: string;
  /** The target, as named or resolved from the roster; null when none could be chosen. */
  readonly target: string | null;
  /** AMBIGUOUS_TARGET: the connected peers to choose from. */
  readonly choices: readonly string[];
  readonly notReadyReason: NotReadyReason | null;
  readonly scopeGap: ScopeGap | null;
  /** AGENT_BLOCKED: the presence that showed the gate. */
  readonly blocked: {
    liveness: Liveness;
    kind: BlockedKind | null;
    observedAt: Date;
    stateChangeSeq: bigint;
  } | null;
}

export const conflictFields = [
  'to',
  'kind',
  'subject',
  'body',
  'todoId',
  'threadId',
  'replyTo',
] as const;
export type ConflictField = (typeof conflictFields)[number];

export interface IdempotencyConflict {
  readonly type: 'IdempotencyConflict';
  readonly goalId: string;
  readonly idempotencyKey: string;
  readonly differingFields: readonly ConflictField[];
  readonly original: Delivery;
}

export type DeliverResult = Delivery | DeliveryRefused | IdempotencyConflict;

interface Validated {
  goalId: string;
  to: string | null;
  todoId: string | null;
  kind: DeliveryKind;
  subject: string;
  body: string;
  threadId: string | null;
  replyTo: string | null;
  idempotencyKey: string;
  activityWindowMs: number;
  timeoutMs: number;
}

function validate(input: DeliverInput): Validated {
  const optionalId = (field: string, value: string | null | undefined) =>
    value == null ? null : validateId(field, value);
  const goalId = validateId('goalId', input.goalId);
  const to = optionalId('to', input.to);
  const todoId = optionalId('todoId', input.todoId);
  const threadId = optionalId('threadId', input.threadId);
  const replyTo = optionalId('replyTo', input.replyTo);
  const subject = screenText('subject', input.subject, MAX_SUBJECT_CHARS, 1, 'one');
  if (input.body.trim().length === 0) throw new InputError('body must not be empty', 'body');
  const bytes = Buffer.byteLength(input.body, 'utf8');
  if (bytes > MAX_BODY_BYTES) {
    throw new InputError(
      `body is ${bytes} bytes; at most ${MAX_BODY_BYTES} (UTF-8) are accepted: put larger content in a durable artifact and send a reference to it`,
      'body',
    );
  }
  const idempotencyKey = validateText(
    'idempotencyKey',
    input.idempotencyKey,
    MAX_IDEMPOTENCY_KEY_CHARS,
    1,
    'one',
  );
  // A key is compared as it is, so it is refused rather than redacted: it is shown back.
  if (redactSecrets(idempotencyKey).count > 0) {
    throw new InputError(
      'idempotencyKey must not carry a credential or an absolute local path',
      'idempotencyKey',
    );
  }
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
    throw new InputError(`timeoutMs must be an integer from 1 to ${MAX_TIMEOUT_MS}`, 'timeoutMs');
  }
  const activityWindowMs =
    input.activityWindowMs ?? Math.min(DEFAULT_ACTIVITY_WINDOW_MS, timeoutMs);
  if (!Number.isInteger(activityWindowMs) || activityWindowMs < 1 || activityWindowMs > timeoutMs) {
    throw new InputError(
      `activityWindowMs must be an integer from 1 to timeoutMs (${timeoutMs})`,
      'activityWindowMs',
    );
  }
  return {
    goalId,
    to,
    todoId,
    kind: input.kind,
    subject,
    body: input.body,
    threadId,
    replyTo,
    idempotencyKey,
    activityWindowMs,
    timeoutMs,
  };
}

const refused = (
  goalId: string,
  reason: RefusalReason,
  extra: Partial<Omit<DeliveryRefused, 'type' | 'reason' | 'goalId'>> = {},
): DeliveryRefused => ({
  type: 'DeliveryRefused',
  reason,
  goalId,
  target: null,
  choices: [],
  notReadyReason: null,
  scopeGap: null,
  blocked: null,
  ...extra,
});

/**
 * Hands one registered agent a bounded request or context (docs/api.md, "Delivery, inbox and roster"). Validates fully,
 * then decides every refusal before writing: a refusal writes nothing. A retried key
 * returns the original (with its current outcome) or a conflict, and never writes again.
 * Otherwise one transaction appends the delivery to the goal's inbox stream under its
 * head lock and rings the doorbell on commit.
 */
export async function deliver(db: Db, caller: Caller, input: DeliverInput): Promise<DeliverResult> {
  const v = validate(input);
  const sender = senderOf(caller);
  if (v.to !== null && v.to === recipientIn(caller, v.goalId)) {
    throw new InputError('to must name another agent: an agent does not deliver to itself', 'to');
  }
  // The reads before the write do not depend on each other: they are sent at once (one round
  // trip) and judged in order, so a caller out of scope learns nothing from the others.
  const gapRead = checkGoalScope(db, caller, v.goalId);
  const todoRead = checkTodoInGoal(db, v.goalId, v.todoId);
  const namedRead = v.to === null ? null : readTarget(db, v.goalId, v.to);
  for (const read of [todoRead, namedRead]) read?.catch(() => {});
  const gap = await gapRead;
  if (gap) return refused(v.goalId, 'SCOPE_GAP', { scopeGap: gap, target: v.to });
  await todoRead;

  // A retried key is answered with its original, whatever has changed since. The key is looked
  // up only when the answer would not be a new delivery: before a refusal or an input error,
  // and when the write finds the key taken (its unique index, so no read on the way to a
  // write, where a lookup would also depend on the planner choosing that index).
  const originalOr = async (otherwise: () => DeliverResult): Promise<DeliverResult> => {
    const original = await findByKey(db, v.goalId, sender.key, v.idempotencyKey);
    return original ? replay(db, original, v) : otherwise();
  };
  let decided: { type: 'Write'; values: NewDelivery } | DeliveryRefused;
  try {
    decided = await decide(db, caller, sender, v, namedRead);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return originalOr(() => {
      throw error;
    });
  }
  if (decided.type === 'DeliveryRefused') return originalOr(() => decided);
  try {
    const written = await appendDelivery(db, decided.values);
    return { type: 'Delivery', row: written, history: [], notices: [], replayed: false };
  } catch (error) {
    if (!violates(error, 'deliveries_idempotency_idx')) throw error;
    return originalOr(() => {
      throw new Error('idempotency key conflicted but its delivery cannot be read');
    });
  }
}

/** The delivery to write, with its target, thread and pin; or why it is refused. */
async function decide(
  db: Db,
  caller: Caller,
  sender: Sender,
  v: Validated,
  namedRead: Promise<TargetReads> | null,
): Promise<{ type: 'Write'; values: NewDelivery } | DeliveryRefused> {
  const resolved = await resolveTarget(db, sender, v, namedRead);
  if (resolved.type === 'DeliveryRefused') return resolved;
  const { target, pin } = resolved;
  const threadId = await resolveThread(db, caller, sender, v);
  if (pin?.presence.liveness === 'BLOCKED') {
    return refused(v.goalId, 'AGENT_BLOCKED', {
      target,
      blocked: {
        liveness: 'BLOCKED',
        kind: pin.presence.blockedKind,
        observedAt: pin.presence.observedAt,
        stateChangeSeq: pin.stateChangeSeq,
      },
    });
  }
  const pinState: PinState = pin
    ? !pin.supportsPinnedWaits
      ? 'PROVIDER_WITHOUT_PINNED_WAITS'
      : pin.lapsed
        ? 'COVERAGE_LOST'
        : 'PINNED'
    : (await providerCoversGoal(db, v.goalId))
      ? 'NO_PRESENCE_AT_SUBMISSION'
      : 'NO_PROVIDER';
  const pinned = pinState === 'PINNED' ? pin : undefined;
  const id = `dlv_${randomUUID()}`;
  const values: NewDelivery = {
    id,
    goalId: v.goalId,
    senderKey: sender.key,
    senderKind: sender.kind,
    senderGoalId: sender.goalId,
    senderAgentId: sender.agentId,
    senderCredentialId: sender.credentialId,
    toAgentId: target,
    requestedTo: v.to,
    kind: v.kind,
    todoId: v.todoId,
    subject: v.subject,
    body: v.body,
    bodyPreview: bodyPreview(v.body),
    threadId: threadId ?? id,
    requestedThreadId: v.threadId,
    replyTo: v.replyTo,
    idempotencyKey: v.idempotencyKey,
    activityWindowMs: v.activityWindowMs,
    timeoutMs: v.timeoutMs,
    pinState,
    pinProvider: pinned?.provider ?? null,
    pinSessionRef: pinned?.providerSessionRef ?? null,
    pinOccupantRef: pinned?.occupantRef ?? null,
    baselineSeq: pinned?.stateChangeSeq ?? 0n,
  };
  return { type: 'Write', values };
}

/** The original for a retried key, brought up to date; or the fields in which the retry differs. */
async function replay(db: Db, original: DeliveryRow, v: Validated): Promise<DeliverResult> {
  const asSent: Record<ConflictField, string | null> = {
    to: original.requestedTo,
    kind: original.kind,
    subject: original.subject,
    body: original.body,
    todoId: original.todoId,
    threadId: original.requestedThreadId,
    replyTo: original.replyTo,
  };
  const differingFields = conflictFields.filter((field) => asSent[field] !== v[field]);
  const current = await currentDelivery(db, original);
  if (differingFields.length === 0) return { ...current, replayed: true };
  return {
    type: 'IdempotencyConflict',
    goalId: v.goalId,
    idempotencyKey: v.idempotencyKey,
    differingFields,
    original: current,
  };
}

/** What a delivery needs to know of its target: whether it is registered, and its pin. */
interface TargetReads {
  readonly agent: Awaited<ReturnType<typeof findAgent>>;
  readonly pin: Pin | undefined;
}

async function readTarget(db: Db, goalId: string, to: string): Promise<TargetReads> {
  const [agent, pins] = await Promise.all([
    findAgent(db, goalId, to),
    currentPins(db, goalId, [to]),
  ]);
  return { agent, pin: pins.get(to) };
}

/**
 * `to` as named (its reads already sent: `named`), or from the sender's roster: its primary,
 * else its one connected peer.
 */
async function resolveTarget(
  db: Db,
  sender: Sender,
  v: Validated,
  named: Promise<TargetReads> | null,
): Promise<{ type: 'Target'; target: string; pin: Pin | undefined } | DeliveryRefused> {
  let to = v.to;
  let reads = named;
  if (to === null || reads === null) {
    const roster = await connectedTargets(db, v.goalId, sender.key);
    if (roster.primaryPeer !== null) to = roster.primaryPeer;
    else if (roster.connected.length === 1) to = roster.connected[0] as string;
    else if (roster.connected.length === 0) {
      return refused(v.goalId, 'NOT_READY', { notReadyReason: 'NO_CONNECTED_PEER' });
    } else return refused(v.goalId, 'AMBIGUOUS_TARGET', { choices: roster.connected });
    reads = readTarget(db, v.goalId, to);
  }
  const { agent, pin } = await reads;
  if (!agent) return refused(v.goalId, 'UNKNOWN_TARGET', { target: to });
  if (agent.retiredAt)
    return refused(v.goalId, 'NOT_READY', { target: to, notReadyReason: 'TARGET_RETIRED' });
  return { type: 'Target', target: to, pin };
}

/**
 * The thread a delivery joins: that of the message it answers (which the caller must have
 * sent or received in this goal), else the one named, else (null) a new one named after itself.
 * A named thread that looks like a delivery's id (a thread named after its first delivery)
 * must be one of this goal: the same refusal whether it is of another goal or of none.
 */
async function resolveThread(
  db: Queryable,
  caller: Caller,
  sender: Sender,
  v: Validated,
): Promise<string | null> {
  if (v.replyTo === null) {
    if (v.threadId?.startsWith('dlv_')) {
      const [started] = await db
        .select({ id: deliveriesTable.id })
        .from(deliveriesTable)
        .where(and(eq(deliveriesTable.id, v.threadId), eq(deliveriesTable.goalId, v.goalId)));
      if (!started) {
        throw new InputError(
          'threadId names no delivery of this goal: name a thread of this goal, or one of your own that does not start with dlv_',
          'threadId',
        );
      }
    }
    return v.threadId;
  }
  const [answered] = await db
    .select()
    .from(deliveriesTable)
    .where(and(eq(deliveriesTable.id, v.replyTo), eq(deliveriesTable.goalId, v.goalId)));
  const me = recipientIn(caller, v.goalId);
  if (!answered || (answered.senderKey !== sender.key && answered.toAgentId !== me)) {
    throw new InputError(
      'replyTo must name a message you sent or received in this goal',
      'replyTo',
    );
  }
  if (v.threadId !== null && v.threadId !== answered.threadId) {
    throw new InputError(
      `threadId differs from the thread of the message replied to (${answered.threadId}); omit it or pass that one`,
      'threadId',
    );
  }
  return answered.threadId;
}

async function providerCoversGoal(db: Queryable, goalId: string): Promise<boolean> {
  const rows = await db
    .select({ providerId: providersTable.providerId })
    .from(providersTable)
    .where(sql`${goalId} = any(${providersTable.goalIds})`)
    .limit(1);
  return rows.length > 0;
}
