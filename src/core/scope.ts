import type { Caller } from './caller.ts';

export const scopeGapReasons = ['AUDIENCE_NOT_AUTHORIZED', 'UNKNOWN', 'NOT_OWN_LEDGER'] as const;
export type ScopeGapReason = (typeof scopeGapReasons)[number];

/**
 * The typed answer for a goal the caller may not see. It is the same whether the goal is
 * out of scope or does not exist, so it never tells one tenant about another's goals. Which
 * goals are in scope is the registry's question (`src/registry/scope.ts`).
 */
export interface ScopeGap {
  readonly type: 'ScopeGap';
  readonly goalId: string;
  readonly reason: ScopeGapReason;
}

export function scopeGap(goalId: string, caller: Caller | null): ScopeGap {
  return { type: 'ScopeGap', goalId, reason: caller ? 'AUDIENCE_NOT_AUTHORIZED' : 'UNKNOWN' };
}
