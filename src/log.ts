import pino from 'pino';
import type { LogLevel } from './config.ts';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger whose every line also carries `fields` (a request id, say). */
  child(fields: LogFields): Logger;
}

/**
 * Fields whose value is never written, whatever a call site passes: a safety net, since no
 * call site logs a token, an authorization header or a body on purpose.
 */
const REDACTED = [
  'token',
  'authorization',
  'adminToken',
  'body',
  '*.token',
  '*.authorization',
  '*.body',
  'headers.authorization',
  'headers.cookie',
];

/**
 * pino, one JSON object per line: `{ level, time, pid, msg, ...fields }` with the level's name
 * and an ISO time. Written synchronously to stderr (fd 2), or to `write` (tests): no
 * transports and no worker threads, so the gateway bundles into one file.
 */
export function createLogger(level: LogLevel, write?: (line: string) => void): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACTED, censor: '[redacted]' },
  };
  const destination = write ? { write } : pino.destination({ dest: 2, sync: true });
  return wrap(pino(options, destination));
}

function wrap(logger: pino.Logger): Logger {
  return {
    debug: (message, fields) => logger.debug(fields ?? {}, message),
    info: (message, fields) => logger.info(fields ?? {}, message),
    warn: (message, fields) => logger.warn(fields ?? {}, message),
    error: (message, fields) => logger.error(fields ?? {}, message),
    child: (fields) => wrap(logger.child(fields)),
  };
}
