/** Words for the typed values, so the page says what a state means rather than its enum. */

export const REASON_WORDS: Record<string, string> = {
  PROVIDER_SILENT: 'Provider stopped reporting',
  BLOCKED_ON_GATE: 'Blocked on a gate',
  WAITING_ON_OWNER: 'Waiting on the owner',
  STALLED_DELIVERY: 'Stalled delivery',
  STALE_CLAIM: 'Stale claim',
};

export const SCOPE_GAP_WORDS: Record<string, string> = {
  AUDIENCE_NOT_AUTHORIZED:
    'this token does not cover this goal (or the goal does not exist: the gateway does not say which)',
  NOT_OWN_LEDGER: 'a peer token reads only its own agent’s evidence ledger',
  UNKNOWN: 'no credential was sent',
};

export const BASIS_WORDS: Record<string, string> = {
  PROVIDER_DETECTION: 'provider',
  LIFECYCLE_HOOK: 'hook',
  PROGRAM_STATUS: 'program status',
  SELF_REPORT: 'self-report',
};

/** Why presence reads unknown: the coverage gap, said as what happened. */
export const COVERAGE_GAP_WORDS: Record<string, string> = {
  PRESENCE_TTL_EXPIRED: 'no report inside the provider’s TTL',
  PROVIDER_RESTARTED: 'its provider restarted',
  PROVIDER_REVOKED: 'its provider’s credential was revoked',
  PROVIDER_CANNOT_CLASSIFY: 'the provider cannot classify it',
};

/** "3 s ago", "4 min ago", "2 h ago", "5 d ago". */
export function ago(iso: string | null | undefined, now: number): string {
  if (!iso) return '—';
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 90) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}

/** The exact local date and time of an ISO timestamp, for a tooltip. */
export function exact(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    dateStyle: 'medium',
    timeStyle: 'medium',
  });
}

/** A span of milliseconds in words: "0.05 s", "5 s", "2 min", "3 h". */
export function duration(ms: number): string {
  if (ms < 1000) return `${ms / 1000} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  return `${Math.round(minutes / 60)} h`;
}

/** "in 45 s", "in 12 min", "in 2 h" (or "now" once it has passed). */
export function until(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (seconds <= 0) return 'now';
  if (seconds < 90) return `in ${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `in ${minutes} min`;
  return `in ${Math.round(minutes / 60)} h`;
}

export const words = (value: string) => value.toLowerCase().replaceAll('_', ' ');

/** Hash routes: #/g/<goal>[/agent/<id> | /work | /todo/<id> | /inbox | /delivery/<id> | /credentials]. */
export const href = {
  goal: (goalId: string) => `#/g/${encodeURIComponent(goalId)}`,
  agent: (goalId: string, agentId: string) =>
    `#/g/${encodeURIComponent(goalId)}/agent/${encodeURIComponent(agentId)}`,
  todo: (goalId: string, todoId: string) =>
    `#/g/${encodeURIComponent(goalId)}/todo/${encodeURIComponent(todoId)}`,
  work: (goalId: string) => `#/g/${encodeURIComponent(goalId)}/work`,
  inbox: (goalId: string) => `#/g/${encodeURIComponent(goalId)}/inbox`,
  credentials: (goalId: string) => `#/g/${encodeURIComponent(goalId)}/credentials`,
  delivery: (goalId: string, deliveryId: string) =>
    `#/g/${encodeURIComponent(goalId)}/delivery/${encodeURIComponent(deliveryId)}`,
};

export type Route =
  | { view: 'home' }
  | { view: 'goal'; goalId: string }
  | { view: 'agent'; goalId: string; agentId: string }
  | { view: 'todo'; goalId: string; todoId: string }
  | { view: 'work'; goalId: string }
  | { view: 'inbox'; goalId: string }
  | { view: 'credentials'; goalId: string }
  | { view: 'delivery'; goalId: string; deliveryId: string };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (parts[0] !== 'g' || !parts[1]) return { view: 'home' };
  const goalId = parts[1];
  if (parts[2] === 'agent' && parts[3]) return { view: 'agent', goalId, agentId: parts[3] };
  if (parts[2] === 'todo' && parts[3]) return { view: 'todo', goalId, todoId: parts[3] };
  if (parts[2] === 'delivery' && parts[3])
    return { view: 'delivery', goalId, deliveryId: parts[3] };
  if (parts[2] === 'work') return { view: 'work', goalId };
  if (parts[2] === 'inbox') return { view: 'inbox', goalId };
  if (parts[2] === 'credentials') return { view: 'credentials', goalId };
  return { view: 'goal', goalId };
}
