import { and, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { ProviderCaller } from '../core/caller.ts';
import { ForbiddenError, InputError } from '../core/errors.ts';
import { validateId, validateText } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import { lapseGoal, liveSql } from './lapse.ts';
import {
  type DeclaredSource,
  type Liveness,
  type ObservationSource,
  type Provider,
  presenceTable,
  providersTable,
} from './tables.ts';

/** Most lines an excerpt may carry, whatever a provider declares. */
export const GATEWAY_MAX_LINES = 500;
/** Most reports in one reportPresence call. */
export const MAX_REPORTS_PER_BATCH = 500;
export const MAX_REF_LENGTH = 200;
export const MAX_LINE_LENGTH = 2000;

// ---- providers -----------------------------------------------------------------------

export interface RegisterProviderInput {
  providerId: string;
  instanceId: string;
  membershipProof: string;
  identifierRules: string;
  livenessMapping: { providerState: string; liveness: Liveness }[];
  presenceTtlMs: number;
  observationSources: DeclaredSource[];
  supportsPinnedWaits: boolean;
  persistence: string;
  rollup?: string | null;
  host?: string | null;
}

/** A host name as DNS spells one (RFC 1123 labels), or an address. */
const HOST =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)*$|^[0-9A-Fa-f:.]{2,45}$/;

function validateHost(host: string | null | undefined): string | null {
  if (host === null || host === undefined) return null;
  if (!HOST.test(host))
    throw new InputError(
      'host must be a host name (letters, digits, - and _ in dot-separated labels of 1-63, at most 253 in all) or an IP address',
      'host',
    );
  return host;
}

/**
 * Records (or replaces) a provider's declaration. A new `instanceId` means the provider
 * restarted: in the same transaction, every live presence its earlier instances reported
 * lapses (PROVIDER_RESTARTED), one change each, before the new instance's first report.
 */
export async function registerProvider(
  db: Db,
  caller: ProviderCaller,
  input: RegisterProviderInput,
): Promise<Provider> {
  const providerId = validateId('providerId', input.providerId);
  if (caller.providerId !== providerId) {
    throw new ForbiddenError(
      `this credential speaks for provider ${caller.providerId}, not ${providerId}`,
    );
  }
  if (
    !Number.isInteger(input.presenceTtlMs) ||
    input.presenceTtlMs < 1000 ||
    input.presenceTtlMs > 86_400_000
  ) {
    throw new InputError('presenceTtlMs must be an integer from 1000 to 86400000', 'presenceTtlMs');
  }
  const sources = new Set<ObservationSource>();
  for (const declared of input.observationSources) {
    if (sources.has(declared.source)) {
      throw new InputError(
        `observation source ${declared.source} is declared twice`,
        'observationSources',
      );
    }
    sources.add(declared.source);
    if (
      !Number.isInteger(declared.maxLines) ||
      declared.maxLines < 1 ||
      declared.maxLines > 10_000
    ) {
      throw new InputError('maxLines must be an integer from 1 to 10000', 'observationSources');
    }
  }
  const mapping: Record<string, Liveness> = {};
  for (const { providerState, liveness } of input.livenessMapping) {
    mapping[validateText('livenessMapping.providerState', providerState, 100, 1, 'one')] = liveness;
  }
  const values = {
    providerId,
    instanceId: validateText('instanceId', input.instanceId, MAX_REF_LENGTH, 1, 'one'),
    goalIds: [...caller.goalIds],
    membershipProof: validateText('membershipProof', input.membershipProof, 1000),
    identifierRules: validateText('identifierRules', input.identifierRules, 1000),
    livenessMapping: mapping,
    presenceTtlMs: input.presenceTtlMs,
    observationSources: input.observationSources.map((s) => ({
      source: s.source,
      maxLines: s.maxLines,
      limits: [...new Set(s.limits)],
    })),
    supportsPinnedWaits: input.supportsPinnedWaits,
    persistence: validateText('persistence', input.persistence, 1000),
    rollup: input.rollup ? validateText('rollup', input.rollup, 1000) : null,
    host: validateHost(input.host),
  };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(providersTable)
      .values(values)
      .onConflictDoUpdate({
        target: providersTable.providerId,
        set: { ...values, registeredAt: sql`now()` },
      })
      .returning();
    if (!row) throw new Error('provider was written but cannot be read');
    const replaced = and(
      eq(presenceTable.providerId, providerId),
      ne(presenceTable.instanceId, row.instanceId),
    ) as SQL;
    const goals = await tx
      .selectDistinct({ goalId: presenceTable.goalId })
      .from(presenceTable)
      .where(and(replaced, liveSql))
      .orderBy(presenceTable.goalId);
    for (const { goalId } of goals) await lapseGoal(tx, goalId, replaced);
    return row;
  });
}
