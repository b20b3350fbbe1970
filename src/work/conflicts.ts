/**
 * Write-scope conflicts: which other agents' claimed live todos write where a todo would,
 * in the same repository. Pure: the frontier and claimTodo load the todos and call this.
 */

import { scopesOverlap } from './scopes.ts';

/** The fields a conflict reads, of a live todo. */
export interface ScopedWork {
  readonly id: string;
  readonly taskRepository: string | null;
  readonly writeScope: readonly string[];
  readonly claimedBy: string | null;
  /** When it was claimed, in microseconds since the epoch (null while unclaimed). */
  readonly claimOrder: number | null;
}

/** Another agent's claimed todo whose write scope overlaps the todo's. */
export interface WriteScopeConflict {
  /** The other todo: the owner's earliest-claimed conflicting one. */
  readonly todoId: string;
  readonly owner: string;
  /** The shared repository; null when neither todo names one. */
  readonly repository: string | null;
  /** The todo's own entry that overlaps. */
  readonly writeScope: string;
  /** The other todo's entry it overlaps. */
  readonly otherWriteScope: string;
}

interface Claim {
  readonly work: ScopedWork;
  readonly owner: string;
  readonly entry: string;
}

/** Earlier claim first; the todo id breaks a tie, so every reader orders claims alike. */
const claimedFirst = (a: ScopedWork, b: ScopedWork) =>
  (a.claimOrder ?? 0) - (b.claimOrder ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Per owner, its two earliest claims (two, so that one remains when the first is the todo itself). */
type Earliest = Map<string, Claim[]>;

/** `compute` called once per key (a string, or an object by identity). */
export const memoize = <K, T>(compute: (key: K) => T) => {
  const cache = new Map<K, T>();
  return (key: K): T => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      cache.set(key, value);
    }
    return value;
  };
};

/** Per owner, its two earliest of `claims` (of distinct todos). Sorts `claims`. */
function earliestByOwner(claims: Claim[]): Earliest {
  const earliest: Earliest = new Map();
  for (const claim of claims.sort((a, b) => claimedFirst(a.work, b.work))) {
    const list = earliest.get(claim.owner);
    if (!list) earliest.set(claim.owner, [claim]);
    else if (list.length < 2 && list[0]?.work.id !== claim.work.id) list.push(claim);
  }
  return earliest;
}

/**
 * A function from a live todo to its conflicts for `agentId`: for each other agent that
 * claims a live todo of the same repository (no repository matches only no repository)
 * whose write scope overlaps the todo's, one conflict naming that agent's earliest such
 * claim. When `agentId` claims the todo itself, only claims older than its own conflict:
 * of two overlapping claimed todos the later claim is held back, so one of them stays
 * runnable. Overlaps are computed once per pair of distinct entries of a repository.
 */
export function conflictFinder(
  todos: readonly ScopedWork[],
  agentId: string,
): (todo: ScopedWork) => WriteScopeConflict[] {
  // Other agents' claims, by repository, then by write-scope entry.
  const claims = new Map<string, Map<string, Claim[]>>();
  for (const work of todos) {
    if (work.claimedBy === null || work.claimedBy === agentId) continue;
    const repository = work.taskRepository ?? '';
    const entries = claims.get(repository) ?? new Map<string, Claim[]>();
    claims.set(repository, entries);
    for (const entry of work.writeScope) {
      const claim = { work, owner: work.claimedBy, entry };
      const list = entries.get(entry);
      if (list) list.push(claim);
      else entries.set(entry, [claim]);
    }
  }
  // The claims that overlap an entry of a repository.
  const overlappingOf = memoize((repository: string) =>
    memoize((entry: string): Earliest => {
      const met: Claim[] = [];
      for (const [other, list] of claims.get(repository) ?? []) {
        if (scopesOverlap(entry, other)) for (const claim of list) met.push(claim);
      }
      return earliestByOwner(met);
    }),
  );
  // A claim meets many todos through the same entry: one conflict for each such pair.
  const conflictOf = memoize((claim: Claim) =>
    memoize(
      (entry: string): WriteScopeConflict => ({
        todoId: claim.work.id,
        owner: claim.owner,
        // Claims are grouped by repository: the claim's is the todo's.
        repository: claim.work.taskRepository,
        writeScope: entry,
        otherWriteScope: claim.entry,
      }),
    ),
  );
  /** The conflicts of a todo, or of one owner only. */
  const find = (todo: ScopedWork, onlyOwner?: string): WriteScopeConflict[] => {
    const repository = todo.taskRepository ?? '';
    const own = todo.claimedBy === agentId;
    const byOwner = new Map<string, { claim: Claim; entry: string }>();
    for (const entry of todo.writeScope) {
      const overlapping = overlappingOf(repository)(entry);
      const owners =
        onlyOwner === undefined
          ? overlapping.keys()
          : overlapping.has(onlyOwner)
            ? [onlyOwner]
            : [];
      for (const owner of owners) {
        const list = overlapping.get(owner) as Claim[];
        const claim = list.find(
          (c) => c.work.id !== todo.id && (!own || claimedFirst(c.work, todo) < 0),
        );
        if (!claim) continue;
        const seen = byOwner.get(owner);
        if (!seen || claimedFirst(claim.work, seen.claim.work) < 0) {
          byOwner.set(owner, { claim, entry });
        }
      }
    }
    return [...byOwner.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, { claim, entry }]) => conflictOf(claim)(entry));
  };
  // Todos writing the same entries of a repository mostly share their conflicts: an unclaimed
  // one appears in no claim, so its answer depends on the entries alone. One claimed by
  // another agent shares it but for its own owner's entry when that names the todo itself.
  const shared = new Map<string, WriteScopeConflict[]>();
  return (todo) => {
    const repository = todo.taskRepository ?? '';
    if (todo.writeScope.length === 0 || !claims.has(repository)) return [];
    if (todo.claimedBy === agentId) return find(todo);
    const key = `${repository}\u0000${todo.writeScope.join('\u0000')}`;
    let answer = shared.get(key);
    if (answer === undefined) {
      answer = find({ ...todo, id: '', claimedBy: null, claimOrder: null });
      shared.set(key, answer);
    }
    const itself = answer.findIndex((c) => c.todoId === todo.id);
    if (itself < 0) return answer;
    const [next] = find(todo, (answer[itself] as WriteScopeConflict).owner);
    const adjusted = answer.slice();
    if (next) adjusted[itself] = next;
    else adjusted.splice(itself, 1);
    return adjusted;
  };
}
