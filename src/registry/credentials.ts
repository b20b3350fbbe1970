import { and, eq, gt, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { type Caller, OPERATOR } from '../core/caller.ts';
import { UnauthenticatedError } from '../core/errors.ts';
import type { Queryable } from '../db/database.ts';
import type { Doorbell } from '../events/doorbell.ts';
import type { Logger } from '../log.ts';
import { registeredAgentSql } from './scope.ts';
import { type Credential, credentialsTable } from './tables.ts';
import { hashToken } from './tokens.ts';

/**
 * How long a resolved credential is trusted without asking the database again (ms). Its
 * revocation rings the doorbell, which drops the entry at once on every instance; this bound
 * is for a ring that is lost. It is the same bound as the re-check of open streams
 * (`REVALIDATE_MS` in streams.ts), so neither a request nor a stream outlives a missed ring
 * by more than this.
 */
export const CREDENTIAL_TTL_MS = 2_000;

/**
 * `lastUsedAt` resolution: an instance records a credential's use at most once per this
 * interval (ms), so "last used" lags the truth by up to this much, and a busy credential costs
 * one write per interval per instance instead of one per request.
 */
export const LAST_USED_INTERVAL_MS = 60_000;

/** Entries kept at most; the oldest go first (a lookup that misses costs one query). */
const MAX_ENTRIES = 10_000;

/**
 * How long a token found unknown (or revoked) is refused without asking the database again
 * (ms): a flood of wrong tokens costs one query per token per this interval. A token never
 * turns valid later (a new credential gets a new random token), so this delays nothing.
 */
export const UNKNOWN_TTL_MS = 5_000;

export interface CredentialCacheOptions {
  readonly ttlMs?: number;
  readonly lastUsedIntervalMs?: number;
  readonly log?: Logger;
}

interface Entry {
  readonly caller: Caller;
  readonly expires: number;
}

/**
 * Resolves `Authorization` values to callers for one gateway instance, keeping each resolved
 * credential for `ttlMs`, and never past its expiry (keyed by the token's hash; the token
 * itself is never kept), so an expired credential is refused on every instance from its
 * expiry on, with no ring. A credential's ring (revocation, or its agent's retirement) drops
 * its entry; when the doorbell may have missed rings (a new listening connection, or polling
 * while deaf) every entry goes. Unknown, revoked and expired tokens are refused from memory
 * for UNKNOWN_TTL_MS. It also records when each credential was last used, at most once per
 * `lastUsedIntervalMs`, without holding the request.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  /** Credential id -> the hashes cached for it (one token per credential, but be exact). */
  private readonly hashesOf = new Map<string, Set<string>>();
  private readonly lastRecorded = new Map<string, number>();
  /** Hashes found unknown or revoked -> until when they are refused from memory, and why. */
  private readonly unknown = new Map<string, { until: number; message: string }>();
  /** Moves on every drop, so a lookup that raced a revocation is answered but not kept. */
  private epoch = 0;
  private readonly ttlMs: number;
  private readonly lastUsedIntervalMs: number;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly db: Queryable,
    private readonly adminTokenHash: string,
    doorbell: Doorbell | null,
    private readonly options: CredentialCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? CREDENTIAL_TTL_MS;
    this.lastUsedIntervalMs = options.lastUsedIntervalMs ?? LAST_USED_INTERVAL_MS;
    if (doorbell) {
      this.unsubscribe.push(
        doorbell.on('credential', null, (ring) => this.drop(ring.id)),
        doorbell.onReconnect(() => this.clear()),
      );
    }
  }

  /**
   * The caller for an `Authorization` value: null when none was sent, an
   * UnauthenticatedError when one was sent that is malformed, unknown, revoked or expired, or
   * a PEER's whose agent is retired. `admit`, when given, runs first for a token this instance
   * has not seen valid, and may throw to refuse it unchecked (a client address over its failed
   * authentications).
   */
  async resolve(
    authorization: string | null | undefined,
    admit?: () => Promise<void>,
  ): Promise<Caller | null> {
    if (!authorization) return null;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) {
      throw new UnauthenticatedError('the authorization value must be "Bearer <token>"');
    }
    const hash = hashToken(match[1]);
    if (hash === this.adminTokenHash) return OPERATOR;
    const now = Date.now();
    const cached = this.entries.get(hash);
    let caller: Caller;
    if (cached && cached.expires > now) {
      caller = cached.caller;
    } else {
      if (cached) this.forget(hash, cached.caller);
      else await admit?.();
      const refused = this.unknown.get(hash);
      if (refused && refused.until > now) throw new UnauthenticatedError(refused.message);
      const epoch = this.epoch;
      const found = await lookUp(this.db, hash, now).catch((error: unknown) => {
        if (error instanceof UnauthenticatedError) this.refuseFor(hash, error.message, now);
        throw error;
      });
      caller = found.caller;
      const expires = Math.min(now + this.ttlMs, found.expiresAt?.getTime() ?? Infinity);
      if (epoch === this.epoch && expires > now) this.keep(hash, caller, expires);
    }
    this.recordUse(caller, now);
    return caller;
  }

  /** Forgets what it knows of one credential (its ring arrived). */
  drop(credentialId: string): void {
    this.epoch++;
    for (const hash of this.hashesOf.get(credentialId) ?? []) this.entries.delete(hash);
    this.hashesOf.delete(credentialId);
  }

  /** Forgets every credential (rings may have been missed). */
  clear(): void {
    this.epoch++;
    this.entries.clear();
    this.hashesOf.clear();
  }

  close(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private keep(hash: string, caller: Caller, expires: number): void {
    const id = caller.credentialId as string;
    if (this.entries.size >= MAX_ENTRIES) {
      const [oldest] = this.entries;
      if (oldest) this.forget(oldest[0], oldest[1].caller);
    }
    this.entries.set(hash, { caller, expires });
    const hashes = this.hashesOf.get(id) ?? new Set();
    this.hashesOf.set(id, hashes);
    hashes.add(hash);
  }

  private forget(hash: string, caller: Caller): void {
    this.entries.delete(hash);
    const id = caller.credentialId as string;
    const hashes = this.hashesOf.get(id);
    hashes?.delete(hash);
    if (hashes?.size === 0) this.hashesOf.delete(id);
  }

  /** Refuses `hash` from memory for UNKNOWN_TTL_MS (the oldest goes when the map is full). */
  private refuseFor(hash: string, message: string, now: number): void {
    if (this.unknown.size >= MAX_ENTRIES) {
      for (const [key, { until }] of this.unknown) if (until <= now) this.unknown.delete(key);
      const [oldest] = this.unknown.keys();
      if (this.unknown.size >= MAX_ENTRIES && oldest !== undefined) this.unknown.delete(oldest);
    }
    this.unknown.set(hash, { until: now + UNKNOWN_TTL_MS, message });
  }

  /** At most one write per interval per credential; never holds or fails the request. */
  private recordUse(caller: Caller, now: number): void {
    const id = caller.credentialId;
    if (id === null) return;
    const last = this.lastRecorded.get(id);
    if (last !== undefined && now - last < this.lastUsedIntervalMs) return;
    this.lastRecorded.set(id, now);
    if (this.lastRecorded.size > MAX_ENTRIES) {
      for (const [key, at] of this.lastRecorded) {
        if (now - at >= this.lastUsedIntervalMs) this.lastRecorded.delete(key);
      }
    }
    this.db
      .update(credentialsTable)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(credentialsTable.id, id))
      .then(
        () => {},
        (error: unknown) =>
          this.options.log?.warn('could not record when a credential was last used', {
            credentialId: id,
            error: error instanceof Error ? error.message : String(error),
          }),
      );
  }
}

/**
 * A credential stands for its caller while it is not revoked, not expired at `now` (this
 * instance's clock, which the cache's bound and the listing's status use too) and, for a PEER,
 * while its agent is registered and not retired.
 */
function standing(now: number): SQL {
  return and(
    isNull(credentialsTable.revokedAt),
    or(isNull(credentialsTable.expiresAt), gt(credentialsTable.expiresAt, new Date(now))),
    or(
      ne(credentialsTable.kind, 'PEER'),
      registeredAgentSql(sql`${credentialsTable.goalId}`, sql`${credentialsTable.agentId}`),
    ),
  ) as SQL;
}

/** One query: the standing credential with this token hash and its expiry, or UNAUTHENTICATED. */
async function lookUp(
  db: Queryable,
  hash: string,
  now: number,
): Promise<{ caller: Caller; expiresAt: Date | null }> {
  const [row] = await db
    .select()
    .from(credentialsTable)
    .where(and(eq(credentialsTable.tokenHash, hash), standing(now)));
  if (!row) throw new UnauthenticatedError('unknown, revoked or expired credential');
  return { caller: callerOf(row), expiresAt: row.expiresAt };
}

/** The caller a credential row stands for; the row's kind says which fields it carries. */
export function callerOf(row: Credential): Caller {
  const bound = (value: string | null, field: string): string => {
    if (value === null) throw new Error(`${row.kind} credential ${row.id} has no ${field}`);
    return value;
  };
  switch (row.kind) {
    case 'ADMIN':
      return { kind: 'ADMIN', credentialId: row.id };
    case 'STEWARD':
      return { kind: 'STEWARD', credentialId: row.id, goalIds: row.goalIds };
    case 'PEER':
      return {
        kind: 'PEER',
        credentialId: row.id,
        goalId: bound(row.goalId, 'goalId'),
        agentId: bound(row.agentId, 'agentId'),
      };
    case 'PROVIDER':
      return {
        kind: 'PROVIDER',
        credentialId: row.id,
        providerId: bound(row.providerId, 'providerId'),
        goalIds: row.goalIds,
      };
  }
}

/**
 * Which of `ids` still stand for a caller: not revoked, not expired, and for a PEER, its agent
 * still registered and not retired. One statement, however many credentials.
 */
export async function validCredentials(
  db: Queryable,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: credentialsTable.id })
    .from(credentialsTable)
    .where(and(inArray(credentialsTable.id, [...ids]), standing(Date.now())));
  return new Set(rows.map((row) => row.id));
}
