/**
 * One exit code per typed outcome, stable across versions, so an agent can branch on `$?`
 * without parsing text. `switchboard help exit-codes` prints this table; docs/agents.md lists it too.
 */
export const ExitCode = {
  /** Success: the answer, SATISFIED, SUBMITTED, ACTIVITY_OBSERVED. */
  OK: 0,
  /** An unexpected failure (a masked server error, a bug): see --debug. */
  ERROR: 1,
  /** Bad flags or arguments, or input the gateway refused (BAD_USER_INPUT). */
  USAGE: 2,
  /** No token, or the gateway refused it (bad or revoked). */
  UNAUTHENTICATED: 3,
  /** A scope gap (the goal or ledger is outside the credential's scope), or FORBIDDEN. */
  SCOPE_GAP: 4,
  /** Refused: target BLOCKED, AMBIGUOUS_TARGET, NOT_READY, claimed by another, illegal transition, stale fence, digest mismatch, unobservable. */
  REFUSED: 5,
  /** TIMED_OUT (a wait's deadline) or EXPIRED (a delivery's timeout). */
  TIMED_OUT: 6,
  /** STALLED: no activity observed within the delivery's window. */
  STALLED: 7,
  /** The target is NOT_RUNNING or UNREACHABLE (or nothing observable about it). */
  NOT_RUNNING: 8,
  /** The idempotency key was used for a different request. */
  IDEMPOTENCY_CONFLICT: 9,
  /** The gateway cannot be reached. */
  SERVER_UNREACHABLE: 10,
  /** No such agent, todo, gate, delivery or wait. */
  NOT_FOUND: 11,
  /** Nothing to take: the inbox has no unprocessed message. */
  EMPTY: 12,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODE_MEANINGS: readonly [ExitCode, keyof typeof ExitCode, string][] = [
  [0, 'OK', 'success: the answer; wait SATISFIED; delivery SUBMITTED or ACTIVITY_OBSERVED'],
  [1, 'ERROR', 'unexpected failure (masked server error); rerun with --debug'],
  [2, 'USAGE', 'bad flags or arguments, or input the gateway refused (BAD_USER_INPUT)'],
  [3, 'UNAUTHENTICATED', 'no token, or the gateway refused it (bad or revoked)'],
  [4, 'SCOPE_GAP', 'scope gap (outside the credential scope) or FORBIDDEN for its kind'],
  [
    5,
    'REFUSED',
    'refused: AGENT_BLOCKED, AMBIGUOUS_TARGET, NOT_READY, claimed by other, illegal transition, lease held, stale fence, digest mismatch, gate not open, UNOBSERVABLE',
  ],
  [6, 'TIMED_OUT', 'wait TIMED_OUT, or delivery EXPIRED'],
  [7, 'STALLED', 'delivery STALLED: no activity within its window'],
  [8, 'NOT_RUNNING', 'target NOT_RUNNING or UNREACHABLE; observation gap'],
  [9, 'IDEMPOTENCY_CONFLICT', 'the idempotency key was used for a different request'],
  [10, 'SERVER_UNREACHABLE', 'cannot reach the gateway'],
  [11, 'NOT_FOUND', 'no such agent, todo, gate, delivery or wait'],
  [12, 'EMPTY', '`next`: no unprocessed message to take'],
];

/**
 * Ends the command with `code`; `message` (one line) goes to stderr unless empty. `reason` names
 * the outcome finer than the code (a result type, an outcome, the gateway's error code);
 * `result` is the packet the gateway answered, when it answered one.
 */
export class Exit extends Error {
  override readonly name = 'Exit';
  result?: unknown;
  constructor(
    readonly code: ExitCode,
    message = '',
    readonly reason?: string,
  ) {
    super(message);
  }
}

const NAMES = Object.fromEntries(Object.entries(ExitCode).map(([name, code]) => [code, name]));

/**
 * What `--json` prints on stdout for a failure: one object with an `error` member
 * (`code`: the exit code's name, `exitCode`, `message`, and `reason` when there is one) beside
 * the packet's own fields when the gateway answered one.
 */
export function failureJson(exit: Exit, message: string): Record<string, unknown> {
  const error = {
    code: NAMES[exit.code] ?? 'ERROR',
    exitCode: exit.code,
    message,
    ...(exit.reason ? { reason: exit.reason } : {}),
  };
  const packet = exit.result;
  return packet !== null && typeof packet === 'object' && !Array.isArray(packet)
    ? { error, ...packet }
    : { error };
}

export const usage = (message: string) => new Exit(ExitCode.USAGE, message);
