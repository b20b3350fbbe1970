import { randomUUID } from 'node:crypto';
import {
  and,
  arrayContains,
  asc,
  desc,
  eq,
  getTableColumns,
  inArray,
  isNull,
  or,
  sql,
} from 'drizzle-orm';
import type { Caller, CallerKind } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import { type Listing, type Tagged, tag } from '../core/results.ts';
import type { ScopeGap } from '../core/scope.ts';
import { screenText, validateId, validateText } from '../core/validate.ts';
import type { Db, Queryable } from '../db/database.ts';
import { prepared } from '../db/sql.ts';
import { ring } from '../events/doorbell.ts';
import { checkGoalScope, goalsInScope, registeredAgentSql } from './scope.ts';
import {
  type Agent,
  agentsTable,
  type Credential,
  credentialsTable,
  type Delegation,
  delegationsTable,
  type Goal,
  goalsTable,
} from './tables.ts';
import { generateToken, hashToken } from './tokens.ts';

export interface UnknownAgent {
  readonly type: 'UnknownAgent';
  readonly goalId: string;
  readonly agentId: string;
}
export const unknownAgent = (goalId: string, agentId: string): UnknownAgent => ({
  type: 'UnknownAgent',
  goalId,
  agentId,
});

// ---- goals ---------------------------------------------------------------------------

export type CreateGoalResult =
  | Tagged<'Goal', Goal>
  | { readonly type: 'GoalAlreadyExists'; readonly goal: Goal };

export async function createGoal(
  db: Db,
  input: { goalId: string; title: string },
): Promise<CreateGoalResult> {
  const id = validateId('goalId', input.goalId);
  const title = screenText('title', input.title, 200, 1, 'one');
  const [created] = await db
    .insert(goalsTable)
    .values({ id, title })
    .onConflictDoNothing()
    .returning();
  if (created) return tag('Goal', created);
  const [existing] = await db.select().from(goalsTable).where(eq(goalsTable.id, id));
  if (!existing) throw new Error(`goal ${id} conflicted but cannot be read`);
  return { type: 'GoalAlreadyExists', goal: existing };
}

/** The goals in the caller's scope, by id. */
export async function listGoals(db: Db, caller: Caller | null): Promise<Goal[]> {
  const ids = await goalsInScope(db, caller);
  if (ids.length === 0) return [];
  return db
    .select()
    .from(goalsTable)
    .where(inArray(goalsTable.id, ids))
    .orderBy(asc(goalsTable.id));
}

// ---- agents --------------------------------------------------------------------------

export type RegisterAgentResult =
  | Tagged<'Agent', Agent>
  | { readonly type: 'AgentAlreadyRegistered'; readonly agent: Agent }
  | ScopeGap;

export async function registerAgent(
  db: Db,
  caller: Caller,
  input: { goalId: string; agentId: string; agentModel: string; hostSurface: string },
): Promise<RegisterAgentResult> {
  const values = {
    goalId: validateId('goalId', input.goalId),
    agentId: validateId('agentId', input.agentId),
    agentModel: validateText('agentModel', input.agentModel, 100, 1, 'one'),
    hostSurface: validateText('hostSurface', input.hostSurface, 100, 1, 'one'),
  };
  const gap = await checkGoalScope(db, caller, values.goalId);
  if (gap) return gap;
  const [created] = await db.insert(agentsTable).values(values).onConflictDoNothing().returning();
  if (created) return tag('Agent', created);
  const existing = await findAgent(db, values.goalId, values.agentId);
  if (!existing) throw new Error(`agent ${values.agentId} conflicted but cannot be read`);
  return { type: 'AgentAlreadyRegistered', agent: existing };
}

const agentById = prepared('agent_by_id', (db) =>
  db
    .select()
    .from(agentsTable)
    .where(
      and(
        eq(agentsTable.goalId, sql.placeholder('goalId')),
        eq(agentsTable.agentId, sql.placeholder('agentId')),
      ),
    ),
);

export function findAgent(
  db: Queryable,
  goalId: string,
  agentId: string,
): Promise<Agent | undefined> {
  return agentById(db)
    .execute({ goalId, agentId })
    .then((rows) => rows[0]);
}

export type AgentListing = Listing<Agent>;

export async function listAgents(
  db: Db,
  caller: Caller | null,
  goalId: string,
  includeRetired: boolean,
): Promise<AgentListing> {
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, rows: [], scopeGap: gap };
  const rows = await db
    .select()
    .from(agentsTable)
    .where(
      and(
        eq(agentsTable.goalId, goalId),
        includeRetired ? undefined : isNull(agentsTable.retiredAt),
      ),
    )
    .orderBy(asc(agentsTable.agentId));
  return { goalId, rows, scopeGap: null };
}

export type RetireAgentResult = Tagged<'Agent', Agent> | UnknownAgent | ScopeGap;

/**
 * Retires an agent: it stays in the registry (its history is kept) but is no longer a
 * member, so its credentials answer with scope gaps and their open sockets are closed.
 */
export async function retireAgent(
  db: Db,
  caller: Caller,
  goalId: string,
  agentId: string,
): Promise<RetireAgentResult> {
  validateId('goalId', goalId);
  validateId('agentId', agentId);
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return gap;
  return db.transaction(async (tx) => {
    const [retired] = await tx
      .update(agentsTable)
      .set({ retiredAt: sql`coalesce(${agentsTable.retiredAt}, now())` })
      .where(and(eq(agentsTable.goalId, goalId), eq(agentsTable.agentId, agentId)))
      .returning();
    if (!retired) return unknownAgent(goalId, agentId);
    const bound = await tx
      .select({ id: credentialsTable.id })
      .from(credentialsTable)
      .where(and(eq(credentialsTable.goalId, goalId), eq(credentialsTable.agentId, agentId)));
    for (const { id } of bound) await ring(tx, { kind: 'credential', id, seq: '0' });
    return tag('Agent', retired);
  });
}

export type DelegateGoalResult = Tagged<'Delegation', Delegation> | UnknownAgent | ScopeGap;

/** Widens a peer's scope: the agent (`agentGoalId`, `agentId`) may also act in `goalId`. */
export async function delegateGoal(
  db: Db,
  caller: Caller,
  input: { goalId: string; agentGoalId: string; agentId: string },
): Promise<DelegateGoalResult> {
  const goalId = validateId('goalId', input.goalId);
  const agentGoalId = validateId('agentGoalId', input.agentGoalId);
  const agentId = validateId('agentId', input.agentId);
  const gap =
    (await checkGoalScope(db, caller, goalId)) ?? (await checkGoalScope(db, caller, agentGoalId));
  if (gap) return gap;
  const agent = await findAgent(db, agentGoalId, agentId);
  if (!agent || agent.retiredAt) return unknownAgent(agentGoalId, agentId);
  await db.insert(delegationsTable).values({ goalId, agentGoalId, agentId }).onConflictDoNothing();
  const [row] = await db
    .select()
    .from(delegationsTable)
    .where(
      and(
        eq(delegationsTable.goalId, goalId),
        eq(delegationsTable.agentGoalId, agentGoalId),
        eq(delegationsTable.agentId, agentId),
      ),
    );
  if (!row) throw new Error('delegation was written but cannot be read');
  return tag('Delegation', row);
}

// ---- credentials ---------------------------------------------------------------------

export interface IssueCredentialInput {
  kind: CallerKind;
  goalId?: string | null;
  agentId?: string | null;
  goalIds?: readonly string[] | null;
  providerId?: string | null;
  label?: string | null;
  /** When it stops standing for its caller; null: never. Must be in the future. */
  expiresAt?: Date | null;
}

export interface IssuedCredential {
  /** Shown exactly once; only its hash is stored. */
  readonly token: string;
  readonly credential: Credential;
}

/**
 * Issues a bearer token bound to one caller, until `expiresAt` if given. What each kind needs:
 * PEER a registered, active agent (`goalId`, `agentId`); STEWARD the goals of its channel
 * (`goalIds`); PROVIDER `providerId` and the goals it reports for (`goalIds`); ADMIN nothing.
 */
export async function issueCredential(
  db: Db,
  input: IssueCredentialInput,
): Promise<IssuedCredential> {
  const label = screenText('label', input.label ?? '', 100, 0, 'one');
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt !== null && expiresAt.getTime() <= Date.now()) {
    throw new InputError(
      `expiresAt must be in the future, got ${expiresAt.toISOString()}`,
      'expiresAt',
    );
  }
  const values = {
    kind: input.kind,
    label,
    goalId: null as string | null,
    agentId: null as string | null,
    providerId: null as string | null,
    goalIds: [] as string[],
    expiresAt,
  };
  const forbid = (field: string, value: unknown) => {
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0)) {
      throw new InputError(`${field} does not apply to a ${input.kind} credential`, field);
    }
  };
  switch (input.kind) {
    case 'PEER': {
      if (!input.goalId || !input.agentId) {
        throw new InputError('a PEER credential needs goalId and agentId', 'agentId');
      }
      forbid('goalIds', input.goalIds);
      forbid('providerId', input.providerId);
      values.goalId = validateId('goalId', input.goalId);
      values.agentId = validateId('agentId', input.agentId);
      const agent = await findAgent(db, values.goalId, values.agentId);
      if (!agent || agent.retiredAt) {
        throw new InputError(
          `agent ${values.agentId} is not registered (or is retired) in goal ${values.goalId}`,
          'agentId',
        );
      }
      break;
    }
    case 'STEWARD':
    case 'PROVIDER': {
      forbid('goalId', input.goalId);
      forbid('agentId', input.agentId);
      if (input.kind === 'PROVIDER') {
        if (!input.providerId)
          throw new InputError('a PROVIDER credential needs providerId', 'providerId');
        values.providerId = validateId('providerId', input.providerId);
      } else {
        forbid('providerId', input.providerId);
      }
      values.goalIds = await existingGoals(db, input.goalIds ?? []);
      break;
    }
    case 'ADMIN':
      for (const field of ['goalId', 'agentId', 'goalIds', 'providerId'] as const) {
        forbid(field, input[field]);
      }
      break;
  }
  return insertCredential(db, values);
}

type Binding = Pick<
  Credential,
  'kind' | 'label' | 'goalId' | 'agentId' | 'providerId' | 'goalIds' | 'expiresAt'
>;

async function insertCredential(db: Queryable, binding: Binding): Promise<IssuedCredential> {
  const token = generateToken();
  const [credential] = await db
    .insert(credentialsTable)
    .values({ ...binding, id: `cred_${randomUUID()}`, tokenHash: hashToken(token) })
    .returning();
  if (!credential) throw new Error('credential was written but cannot be read');
  return { token, credential };
}

async function existingGoals(db: Db, goalIds: readonly string[]): Promise<string[]> {
  if (goalIds.length === 0) throw new InputError('goalIds must name at least one goal', 'goalIds');
  const ids = [...new Set(goalIds.map((id) => validateId('goalIds', id)))];
  const found = await db
    .select({ id: goalsTable.id })
    .from(goalsTable)
    .where(inArray(goalsTable.id, ids));
  const missing = ids.filter((id) => !found.some((row) => row.id === id));
  if (missing.length > 0) throw new InputError(`unknown goal: ${missing.join(', ')}`, 'goalIds');
  return ids;
}

/**
 * Revokes a credential: the next request with it is refused, and every instance closes the
 * sockets opened with it (the doorbell rings when this commits).
 */
export async function revokeCredential(db: Db, id: string): Promise<Credential> {
  return db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(credentialsTable)
      .set({ revokedAt: sql`coalesce(${credentialsTable.revokedAt}, now())` })
      .where(eq(credentialsTable.id, id))
      .returning();
    if (!revoked) throw new InputError(`no credential with id ${id}`, 'id');
    await ring(tx, { kind: 'credential', id, seq: '0' });
    return revoked;
  });
}

export const credentialStatuses = ['ACTIVE', 'EXPIRED', 'REVOKED', 'AGENT_RETIRED'] as const;
export type CredentialStatus = (typeof credentialStatuses)[number];

/** A credential row; listings add whether a PEER's agent is retired (false when absent). */
export type ListedCredential = Credential & { readonly agentRetired?: boolean };

/**
 * Whether a credential stands for its caller now, by the rules the credential cache applies
 * (registry/credentials.ts): revoked first, then expired, then a PEER whose agent is retired.
 */
export function credentialStatus(credential: ListedCredential, now = Date.now()): CredentialStatus {
  if (credential.revokedAt !== null) return 'REVOKED';
  if (credential.expiresAt !== null && credential.expiresAt.getTime() <= now) return 'EXPIRED';
  return credential.agentRetired ? 'AGENT_RETIRED' : 'ACTIVE';
}

/**
 * The credentials whose binding covers `goalId` (a PEER's goal, or one of a STEWARD's or
 * PROVIDER's goals; ADMIN credentials cover none), or every credential when `goalId` is
 * null; of one kind when `kind` is given. Newest first, revoked, expired and retired agents'
 * ones included. Never the token, which is not stored, nor its hash.
 */
export async function listCredentials(
  db: Queryable,
  filter: { goalId?: string | null; kind?: CallerKind | null },
): Promise<ListedCredential[]> {
  const goalId = filter.goalId ? validateId('goalId', filter.goalId) : null;
  const c = credentialsTable;
  return db
    .select({
      ...getTableColumns(c),
      agentRetired: sql<boolean>`(${c.kind} = 'PEER' and not ${registeredAgentSql(sql`${c.goalId}`, sql`${c.agentId}`)})`,
    })
    .from(credentialsTable)
    .where(
      and(
        goalId === null
          ? undefined
          : or(
              eq(credentialsTable.goalId, goalId),
              arrayContains(credentialsTable.goalIds, [goalId]),
            ),
        filter.kind ? eq(credentialsTable.kind, filter.kind) : undefined,
      ),
    )
    .orderBy(desc(credentialsTable.createdAt), asc(credentialsTable.id));
}

/**
 * Replaces a credential's token: one transaction revokes the old credential and issues a new
 * one with the same binding, label and expiry (a new id). The old token is refused from the
 * next request on, and its open streams and sockets end as on a revocation (its ring). A
 * revoked, expired or unknown credential, or a PEER whose agent is retired, is refused and
 * nothing is written.
 */
export async function rotateCredential(db: Db, id: string): Promise<IssuedCredential> {
  return db.transaction(async (tx) => {
    const [old] = await tx
      .update(credentialsTable)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(credentialsTable.id, id), isNull(credentialsTable.revokedAt)))
      .returning();
    if (!old) {
      const [revoked] = await tx
        .select({ id: credentialsTable.id })
        .from(credentialsTable)
        .where(eq(credentialsTable.id, id));
      throw new InputError(
        revoked
          ? `credential ${id} is revoked: issue a new one instead`
          : `no credential with id ${id}`,
        'id',
      );
    }
    if (old.expiresAt !== null && old.expiresAt.getTime() <= Date.now()) {
      throw new InputError(
        `credential ${id} expired at ${old.expiresAt.toISOString()}: issue a new one instead`,
        'id',
      );
    }
    if (old.kind === 'PEER') {
      const agent = await findAgent(tx, old.goalId as string, old.agentId as string);
      if (!agent || agent.retiredAt) {
        throw new InputError(
          `agent ${old.agentId} of goal ${old.goalId} is retired: its credential cannot be rotated`,
          'id',
        );
      }
    }
    const { kind, label, goalId, agentId, providerId, goalIds, expiresAt } = old;
    const issued = await insertCredential(tx, {
      kind,
      label,
      goalId,
      agentId,
      providerId,
      goalIds,
      expiresAt,
    });
    await ring(tx, { kind: 'credential', id, seq: '0' });
    return issued;
  });
}
