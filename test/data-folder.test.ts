/**
 * The data folder: the embedded database in it is durable (each commit's WAL is flushed to the
 * disk before the commit returns, counted as system calls under strace) and private (folders
 * 0700, files 0600); a data folder or an admin-token file open to group or others is refused at
 * start with the command that fixes it, and so is a weak operator token.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { driver } from './support/harness.ts';
import { openToOthers } from './support/modes.ts';

const root = path.resolve(import.meta.dirname, '..');
const scratch = mkdtempSync(path.join(tmpdir(), 'sb-data-folder-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `command` to its end; its exit code and output. */
function run(command: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(command, args, { cwd: root, env: { PATH: process.env.PATH, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe.skipIf(driver === 'postgres')('the embedded database on disk', () => {
  const COMMITS = 20;
  const dataDir = path.join(scratch, 'data');
  let trace = '';

  // One database for the file, made by test/fixtures/commits.ts under strace: every file
  // opened (to know which descriptor is the WAL), every flush, and the fixture's markers.
  beforeAll(async () => {
    const traceFile = path.join(scratch, 'strace.txt');
    const result = await run('strace', [
      '-f',
      '-e',
      'trace=openat,fsync,fdatasync,write',
      '-e',
      'signal=none',
      '-o',
      traceFile,
      process.execPath,
      '--import',
      'tsx',
      'test/fixtures/commits.ts',
      dataDir,
      String(COMMITS),
    ]).catch((error: unknown) => {
      throw new Error(`strace must be installed (apt-get install strace): ${String(error)}`);
    });
    expect(result.code, result.stderr).toBe(0);
    trace = readFileSync(traceFile, 'utf8');
  }, 120_000);

  it('flushes the WAL to the disk at every commit, before the commit returns', () => {
    const lines = trace.split('\n');
    const start = lines.findIndex((line) => line.includes('"commits: start\\n"'));
    const end = lines.findIndex((line) => line.includes('"commits: end\\n"'));
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start);
    // Which file each descriptor is, as of each line (descriptors are reused).
    const files = new Map<string, string>();
    let walFlushes = 0;
    for (const [index, line] of lines.entries()) {
      const opened = /openat\(AT_FDCWD, "([^"]+)".*\) = (\d+)$/.exec(line);
      if (opened) files.set(opened[2] as string, opened[1] as string);
      const flushed = /(?:fdatasync|fsync)\((\d+)\)\s+= 0$/.exec(line);
      if (flushed && index > start && index < end) {
        if (files.get(flushed[1] as string)?.includes(`${dataDir}/pg_wal/`)) walFlushes++;
      }
    }
    expect(walFlushes).toBe(COMMITS);
  });

  it('keeps its folders and files to its user: 0700 and 0600', async () => {
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dataDir, 'pg_wal')).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dataDir, 'global', 'pg_control')).mode & 0o777).toBe(0o600);
    expect(openToOthers(dataDir)).toEqual([]);
  });

  it('refuses a data folder open to group or others with the command that fixes it, and opens it once fixed', async () => {
    chmodSync(dataDir, 0o755);
    const refused = openDatabase({ driver: 'pglite', dataDir }, { template: null });
    await expect(refused).rejects.toThrow(ConfigError);
    const fix = `chmod -R go-rwx ${dataDir}`;
    await expect(refused).rejects.toThrow(
      `SWITCHBOARD_DATA_DIR: "${dataDir}" is open to group or others (mode 0755); it holds the database and the operator token: run ${fix}`,
    );
    execFileSync('sh', ['-c', fix]);
    const database = await openDatabase({ driver: 'pglite', dataDir }, { template: null });
    try {
      const result = await database.db.execute(sql`select count(*)::int as n from commits_probe`);
      expect((result as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(COMMITS);
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe(`the gateway refuses to start (${driver})`, () => {
  /** A data folder of its own: 0700, as mkdtemp makes it. */
  const folder = () => mkdtempSync(path.join(scratch, 'start-'));
  const database = (): Record<string, string> =>
    process.env.TEST_DATABASE_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {};
  const MAKE_ONE = 'make one with: openssl rand -hex 32';

  it('on a weak operator token, a data folder or an admin-token file open to others, with the fix', async () => {
    const openFolder = folder();
    chmodSync(openFolder, 0o750);
    const sharedToken = folder();
    writeFileSync(path.join(sharedToken, 'admin-token'), `sb_${'0123456789abcdef'.repeat(3)}\n`, {
      mode: 0o644,
    });
    chmodSync(path.join(sharedToken, 'admin-token'), 0o644); // whatever the umask
    const shortFile = folder();
    writeFileSync(path.join(shortFile, 'admin-token'), 'abc\n', { mode: 0o600 });
    const nested = path.join(folder(), 'a b');
    mkdirSync(nested, { mode: 0o777 });
    chmodSync(nested, 0o777);
    const runs: [Record<string, string>, string][] = [
      [
        { SWITCHBOARD_ADMIN_TOKEN: 'a'.repeat(32), SWITCHBOARD_DATA_DIR: folder() },
        `SWITCHBOARD_ADMIN_TOKEN is too easy to guess (fewer than 8 different characters); ${MAKE_ONE}`,
      ],
      [
        { SWITCHBOARD_ADMIN_TOKEN: 'a1b2c3d4e5f6a7b8c9d0e1f2', SWITCHBOARD_DATA_DIR: folder() },
        `SWITCHBOARD_ADMIN_TOKEN must be at least 32 characters long; ${MAKE_ONE}`,
      ],
      [
        { SWITCHBOARD_DATA_DIR: openFolder },
        `SWITCHBOARD_DATA_DIR: "${openFolder}" is open to group or others (mode 0750); it holds the database and the operator token: run chmod -R go-rwx ${openFolder}`,
      ],
      [
        { SWITCHBOARD_DATA_DIR: nested },
        `SWITCHBOARD_DATA_DIR: "${nested}" is open to group or others (mode 0777); it holds the database and the operator token: run chmod -R go-rwx '${nested}'`,
      ],
      [
        { SWITCHBOARD_DATA_DIR: sharedToken },
        `${sharedToken}/admin-token is open to group or others (mode 0644); it holds the operator token: run chmod 600 ${sharedToken}/admin-token`,
      ],
      [
        { SWITCHBOARD_DATA_DIR: shortFile },
        `${shortFile}/admin-token must be at least 32 characters long; ${MAKE_ONE}`,
      ],
    ];
    const results = await Promise.all(
      runs.map(([env]) =>
        run(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
          ...database(),
          PORT: '0',
          LOG_LEVEL: 'error',
          ...env,
        }),
      ),
    );
    for (const [index, [, message]] of runs.entries()) {
      const result = results[index];
      expect(result?.code, result?.stderr).toBe(1);
      expect(result?.stderr).toBe(`switchboard: ${message}\n`);
      expect(result?.stdout).toBe('');
    }
  }, 180_000); // six processes starting TypeScript at once: minutes on a loaded 2-core machine
});
