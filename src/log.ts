import { type LogLevel, logLevels } from './config.ts';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** One JSON object per line on stdout: `{ time, level, msg, ...fields }`. */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stdout.write(line),
): Logger {
  const threshold = logLevels.indexOf(level);
  const emit = (at: Exclude<LogLevel, 'silent'>) => (message: string, fields?: LogFields) => {
    if (logLevels.indexOf(at) < threshold) return;
    write(
      `${JSON.stringify({ time: new Date().toISOString(), level: at, msg: message, ...fields })}\n`,
    );
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}
