import { InputError } from './errors.ts';
import { BIDI_CONTROL, redact } from './privacy.ts';

/**
 * Validators every domain uses. Each throws InputError (BAD_USER_INPUT, nothing written) naming
 * the field; none reads the database.
 */

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const MAX_ID_LENGTH = 64;

/** Goal, agent and provider ids: 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit. */
export function validateId(field: string, value: string): string {
  if (value.length === 0) throw new InputError(`${field} must not be empty`, field);
  if (value.length > MAX_ID_LENGTH) {
    throw new InputError(`${field} must be at most ${MAX_ID_LENGTH} characters`, field);
  }
  if (!ID_PATTERN.test(value)) {
    throw new InputError(
      `${field} may contain only letters, digits, '.', '_' and '-', and must start with a letter or digit`,
      field,
    );
  }
  return value;
}

/** Whether a text may span lines: titles, subjects and labels are one line. */
export type Lines = 'one' | 'many';

// Control characters rewrite a reader's terminal (ESC[31m) and bidi controls reorder what it
// shows: text one agent writes and another reads carries neither. Tabs always, and line
// breaks where lines are allowed, are fine.
const CONTROL: Record<Lines, RegExp> = {
  one: /\p{Cc}/u,
  many: /[^\P{Cc}\t\n\r]/u,
};

/**
 * Free text with a length bound and no control or bidi characters (line breaks only where
 * `lines` is 'many'); surrounding whitespace is dropped.
 */
export function validateText(
  field: string,
  value: string,
  max: number,
  min = 1,
  lines: Lines = 'many',
): string {
  const trimmed = value.trim();
  if (trimmed.length < min) throw new InputError(`${field} must not be empty`, field);
  if (trimmed.length > max)
    throw new InputError(`${field} must be at most ${max} characters`, field);
  const text = lines === 'one' ? trimmed.replace(/\t/g, ' ') : trimmed;
  if (CONTROL[lines].test(text) || BIDI_CONTROL.test(text)) {
    throw new InputError(
      `${field} must not contain control characters (terminal escapes), bidi controls${lines === 'one' ? ' or line breaks' : ''}`,
      field,
    );
  }
  return trimmed;
}

/**
 * Text that other agents read (titles, reasons, subjects, visions): validated like
 * validateText, then passed through the privacy boundary — credentials and absolute local
 * paths become `[redacted:…]` markers. What redaction cannot make safe (the start of a
 * private key without its end) is refused, and nothing is written.
 */
export function screenText(
  field: string,
  value: string,
  max: number,
  min = 1,
  lines: Lines = 'many',
): string {
  const redacted = redact(validateText(field, value, max, min, lines));
  if (redacted.unterminatedKey) {
    throw new InputError(
      `${field} holds the start of a private key without its end; it cannot be redacted safely`,
      field,
    );
  }
  return redacted.text;
}

export function validateOptionalId(field: string, value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : validateId(field, value);
}

export function oneOf<T extends string>(field: string, value: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) {
    throw new InputError(`${field} must be one of ${allowed.join(', ')}`, field);
  }
  return value as T;
}

/** Bounds shared by the work graph, the ledger and delivery. */
export const LIMITS = {
  title: 200,
  reason: 500,
  summary: 500,
  roleScope: 200,
  listEntries: 20,
  dependsOn: 50,
  evidenceRef: 300,
  writeScope: 200,
  capabilities: 32,
  maxPriority: 1000,
  maxTtlMs: 24 * 60 * 60 * 1000,
  maxTodosPage: 5000,
} as const;

export function boundedList<T>(
  field: string,
  values: readonly string[] | null | undefined,
  max: number,
  each: (value: string) => T,
): T[] {
  const list = values ?? [];
  if (list.length > max) throw new InputError(`${field} may hold at most ${max} entries`, field);
  return list.map(each);
}

export const unique = <T>(values: T[]): T[] => [...new Set(values)];
