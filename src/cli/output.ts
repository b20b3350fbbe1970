/**
 * Human output: colour (node:util styleText, off for NO_COLOR and non-TTY), tables, times; and
 * text other callers wrote, made inert before it reaches a terminal or a JSON reader.
 */
import * as util from 'node:util';
import type { Liveness } from '../client/index.ts';

type Style = Parameters<typeof util.styleText>[0];

export function colorEnabled(stream: NodeJS.WriteStream = process.stdout): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY) && process.env.TERM !== 'dumb';
}

let colour: boolean | undefined;
export const paint = (style: Style, text: string): string => {
  // util.styleText is Node ≥ 20.12; on an older Node 20 there is simply no colour.
  colour ??= colorEnabled() && typeof util.styleText === 'function';
  return colour ? util.styleText(style, text) : text;
};

const LIVENESS_STYLE: Record<Liveness, Style> = {
  WORKING: 'green',
  BLOCKED: 'yellow',
  IDLE: 'cyan',
  DONE: 'blue',
  UNREACHABLE: 'red',
  UNKNOWN: 'gray',
};
export const liveness = (value: string | null | undefined): string =>
  value ? paint(LIVENESS_STYLE[value as Liveness] ?? 'reset', value) : paint('gray', '—');

export const dim = (text: string) => paint('gray', text);
export const bold = (text: string) => paint('bold', text);
export const warn = (text: string) => paint('yellow', text);

/** Aligned columns without borders (cli-table3, loaded only when a table is printed). */
export async function table(
  head: string[],
  rows: (string | number | null | undefined)[][],
): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const t = new Table({
    head: head.map((h) => bold(h)),
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '  ',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  for (const row of rows) t.push(row.map((cell) => (cell == null ? dim('—') : String(cell))));
  return t
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

/** "3 s ago", "in 2 min", "—". */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return dim('—');
  const ms = now - Date.parse(iso);
  const future = ms < 0;
  const s = Math.round(Math.abs(ms) / 1000);
  const text =
    s < 60
      ? `${s} s`
      : s < 3600
        ? `${Math.round(s / 60)} min`
        : s < 86_400
          ? `${Math.round(s / 3600)} h`
          : `${Math.round(s / 86_400)} d`;
  return future ? `in ${text}` : `${text} ago`;
}

/**
 * A duration with its unit ("30s", "5m", "1500ms", "1h"; "min" for minutes too), in
 * milliseconds; undefined when it is not one. A bare number is not one: its unit would be a
 * guess.
 */
export function parseDuration(value: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)\s*$/.exec(value);
  if (!match) return undefined;
  const n = Number(match[1]);
  const unit = match[2];
  const factor = unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'h' ? 3_600_000 : 60_000;
  return Math.round(n * factor);
}

// What a terminal acts on rather than shows: C0 and C1 controls and DEL (escape sequences, a
// carriage return that overwrites the line), bidi controls (they reorder what is shown) and the
// Unicode line and paragraph separators. Tab and line feed are layout and stay.
const UNSAFE = /\r\n|[^\P{Cc}\t\n]|[\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/gu;
const UNSAFE_IN_JSON = /[\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;
const hex = (char: string, digits: number) =>
  (char.codePointAt(0) ?? 0).toString(16).padStart(digits, '0');

/**
 * Text another caller wrote, safe to print: every character of UNSAFE is shown as an escape
 * (ESC as `\x1b`, a right-to-left override as `\u202e`) instead of being emitted, and CR LF
 * becomes a line feed. Everything else is printed as written.
 */
export function inert(text: string): string {
  return text.replace(UNSAFE, (char) =>
    char === '\r\n' ? '\n' : char <= '\u00ff' ? `\\x${hex(char, 2)}` : `\\u${hex(char, 4)}`,
  );
}

/** `value` with every string in it made inert: what a human rendering of a packet reads. */
export function inertAll<T>(value: T): T {
  if (typeof value === 'string') return inert(value) as T;
  if (Array.isArray(value)) return value.map(inertAll) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => [key, inertAll(field)]),
    ) as T;
  return value;
}

/**
 * JSON as JSON.stringify writes it (which escapes C0 controls), with DEL, C1 controls, bidi
 * controls and U+2028/U+2029 written as `\uXXXX` too: it parses back to the same value and
 * drives no terminal it is printed on.
 */
export const json = (value: unknown, indent?: number): string =>
  JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, (char) => `\\u${hex(char, 4)}`);

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
