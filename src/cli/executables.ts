/**
 * Whether a command resolves as a shell would run it: its program on PATH or at its path, and
 * executable, and the interpreter its `#!/usr/bin/env` line names on PATH too. For `hooks
 * install` (which writes a command that resolves) and `doctor`.
 */
import { accessSync, closeSync, constants, openSync, readSync } from 'node:fs';
import path from 'node:path';

const executable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The absolute path `name` runs as from PATH, if any. */
export function which(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/** The interpreter of a `#!/usr/bin/env NAME` line, if the file starts with one. */
function envInterpreter(file: string): string | undefined {
  const buffer = Buffer.alloc(128);
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    return /^#!\s*\/usr\/bin\/env\s+(?:-S\s+)?(\S+)/.exec(buffer.subarray(0, n).toString())?.[1];
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The program word of a command line: quoted ('…' or "…") or up to the first space. */
export function programOf(command: string): string {
  const text = command.trim();
  const quote = text[0];
  if (quote === "'" || quote === '"') {
    const end = text.indexOf(quote, 1);
    return end < 0 ? text.slice(1) : text.slice(1, end);
  }
  return text.split(/\s+/)[0] ?? '';
}

/** Why `command` would not run as written (undefined: it resolves). */
export function unresolved(
  command: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const program = programOf(command);
  let file: string | undefined;
  if (program.includes('/')) {
    if (!path.isAbsolute(program))
      return `${program} is a relative path: it depends on the directory it runs in`;
    if (!executable(program)) return `${program} does not exist or is not executable`;
    file = program;
  } else {
    file = which(program, env);
    if (!file) return `${program} is not on PATH`;
  }
  const interpreter = envInterpreter(file);
  if (interpreter && !which(interpreter, env))
    return `${file} runs with ${interpreter}, which is not on PATH`;
  return undefined;
}

/** `text` as one shell word. */
export const shellWord = (text: string) =>
  /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The `switchboard` bin this process runs as, absolute (a link such as `npm link`'s is kept as
 * the link), if it is one and executable.
 */
export function runningBin(argv = process.argv): string | undefined {
  const script = argv[1];
  if (!script) return undefined;
  const absolute = path.resolve(script);
  return /^switchboard(\.js)?$/.test(path.basename(absolute)) && executable(absolute)
    ? absolute
    : undefined;
}
