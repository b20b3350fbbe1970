/**
 * The OSC 7501 Program Status Protocol as the tmux provider reads it from a pane's output: a
 * program announces its own state with `ESC ] 7501 ; key=value:… ST` (ST is `ESC \` or BEL),
 * e.g. `state=blocked:kind=permission:app=claude-code:msg=<base64>`. tmux does not know the
 * sequence and drops it from the screen, but control mode's %output carries the pane's raw
 * bytes, escaped (bytes below 0x20 and `\` as `\ooo`), so the provider sees every report.
 *
 * Read here: the root record only (a report with an `id` is a child: a subagent, a background
 * task); states idle, working, blocked (with its kind), done, error and clear; a malformed
 * pair skipped, an unknown key ignored, the last duplicate winning; a missing or unknown state,
 * invalid base64 or a control character in decoded text discarding the whole report; a
 * sequence split across %output lines joined, at most 4096 bytes. The query (`ESC ] 7501 ; ?`)
 * is recognised and counted, never answered (docs/agents.md, "Programs' own status").
 */
import type { BlockedKind, Liveness } from '../../client/index.ts';

export const PROGRAM_STATES = ['idle', 'working', 'blocked', 'done', 'error', 'clear'] as const;
export type ProgramState = (typeof PROGRAM_STATES)[number];

/** One root-record report: what the program said, and the liveness it maps to. */
export interface ProgramStatus {
  state: ProgramState;
  /** blocked only: permission, question or auth (absent for another dialog). */
  kind?: 'permission' | 'question' | 'auth';
  app?: string;
  /** The decoded message (untrusted text; never echoed back to the program). */
  msg?: string;
}

/** What the scanner found in a stretch of output. */
export interface Scanned {
  reports: ProgramStatus[];
  queries: number;
}

const START = '\x1b]7501;';
/** The longest sequence, OSC to ST, the protocol allows. */
const MAX_SEQUENCE = 4096;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC, BEL, CAN and SUB are the protocol's
const SEQUENCE = /\x1b\]7501;([^\x07\x1b\x18\x1a]*)(?:\x07|\x1b\\)/g;
/** BEL ends a sequence; CAN and SUB abort one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what this looks for
const ENDS = /[\x07\x18\x1a]/;
const KEY = /^[a-z]{1,16}$/;
const VALUE = /^[A-Za-z0-9_.,+/=-]*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const CONTROL = /[\p{Cc}]/u;
const APP = /^[A-Za-z0-9_.+-]{1,32}$/;

/** A pane's %output value (tmux's escaping undone) as a string of byte-sized characters. */
export function unescapeOutput(value: string): string {
  return value.replace(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(Number.parseInt(octal, 8)),
  );
}

/** Reads OSC 7501 sequences from one pane's output, which may split a sequence anywhere. */
export class StatusScanner {
  private carry = '';

  /** Feeds one %output value (as tmux escaped it). */
  feed(value: string): Scanned {
    const found: Scanned = { reports: [], queries: 0 };
    if (!this.carry && !value.includes('\\033')) return found;
    const text = this.carry + unescapeOutput(value);
    this.carry = '';
    let end = 0;
    for (const match of text.matchAll(SEQUENCE)) {
      end = (match.index ?? 0) + match[0].length;
      const body = match[1] ?? '';
      if (match[0].length > MAX_SEQUENCE) continue;
      if (body.startsWith('?')) found.queries++;
      else {
        const report = parseReport(body);
        if (report) found.reports.push(report);
      }
    }
    // An unterminated start (or the start of one) at the end waits for the next output.
    const last = text.lastIndexOf('\x1b');
    if (last >= end) {
      const tail = text.slice(last);
      const open = tail.startsWith(START) ? !ENDS.test(tail) : START.startsWith(tail);
      if (open && tail.length <= MAX_SEQUENCE) this.carry = tail;
    }
    return found;
  }
}

/** One report's pairs, or undefined when the report is to be discarded. */
export function parseReport(body: string): ProgramStatus | undefined {
  const pairs = new Map<string, string>();
  for (const pair of body.split(':')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (KEY.test(key) && VALUE.test(value)) pairs.set(key, value);
  }
  const state = pairs.get('state') as ProgramState | undefined;
  if (!state || !PROGRAM_STATES.includes(state)) return undefined;
  if (pairs.has('id')) return undefined; // a child record: the root decides the agent's liveness
  let msg: string | undefined;
  const encoded = pairs.get('msg');
  if (encoded !== undefined) {
    if (!BASE64.test(encoded) || encoded.length > 2732) return undefined;
    msg = Buffer.from(encoded, 'base64').toString('utf8');
    if (CONTROL.test(msg) || msg.includes('\uFFFD')) return undefined;
  }
  const kind = pairs.get('kind');
  return {
    state,
    ...(state === 'blocked' && (kind === 'permission' || kind === 'question' || kind === 'auth')
      ? { kind }
      : {}),
    ...(APP.test(pairs.get('app') ?? '') ? { app: pairs.get('app') } : {}),
    ...(msg !== undefined ? { msg } : {}),
  };
}

/**
 * The liveness a report maps to (clear maps to none: the program stopped reporting). error is
 * a turn that ended in a failure, back at the program's input: DONE, with the error named.
 */
export function programLiveness(
  status: ProgramStatus,
): { liveness: Liveness; blockedKind?: BlockedKind; explain: string } | undefined {
  const named = `OSC 7501 ${status.state}${status.kind ? `(${status.kind})` : ''}${status.app ? ` from ${status.app}` : ''}`;
  switch (status.state) {
    case 'idle':
      return { liveness: 'IDLE', explain: named };
    case 'working':
      return { liveness: 'WORKING', explain: named };
    case 'blocked':
      return {
        liveness: 'BLOCKED',
        ...(status.kind ? { blockedKind: status.kind.toUpperCase() as BlockedKind } : {}),
        explain: named,
      };
    case 'done':
    case 'error':
      return { liveness: 'DONE', explain: named };
    case 'clear':
      return undefined;
  }
}
