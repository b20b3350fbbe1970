/**
 * The README's ten-minute walk, run as a reader pastes it: every ```sh block after a
 * `<!-- walk … -->` comment, in order, in one bash with `set -euo pipefail`, in a folder that
 * looks like a clone after `npm start` (`.switchboard/admin-token`) against a real gateway.
 * `switchboard` is on PATH as `npm link` puts it there: a link to the built bin.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, startGateway, tempHome, uid } from './support/cli.ts';

/** The walk's commands: the ```sh block after each walk marker, joined in order. */
function walkOf(readme: string): string[] {
  const blocks = [...readme.matchAll(/^<!-- walk\b[^\n]*-->\n+```sh\n([\s\S]*?)^```$/gm)];
  return blocks.map((match) => match[1] as string);
}

let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

it('the README walk runs top to bottom against a started gateway, each expected refusal with its exit code', async () => {
  const blocks = walkOf(readFileSync('README.md', 'utf8'));
  expect(blocks.length).toBeGreaterThanOrEqual(5);
  expect(blocks[0]).toMatch(/^switchboard login operator --token-file \.switchboard\/admin-token/);
  // On Postgres the test database outlives a run: the goal gets a fresh id, nothing else changes.
  const goal = uid('tour');
  const script = blocks.join('\n').replace(/(goal create |--goal )tour\b/g, `$1${goal}`);

  const clone = mkdtempSync(path.join(tmpdir(), 'switchboard-walk-'));
  mkdirSync(path.join(clone, '.switchboard'));
  writeFileSync(path.join(clone, '.switchboard', 'admin-token'), `${gw.adminToken}\n`, {
    mode: 0o600,
  });
  const bin = path.join(clone, 'bin');
  mkdirSync(bin);
  symlinkSync(BIN, path.join(bin, 'switchboard'));
  writeFileSync(path.join(clone, 'walk.sh'), script);

  // Asynchronously: the gateway runs in this process and must keep answering meanwhile.
  const home = tempHome();
  const child = spawn('bash', ['-euo', 'pipefail', 'walk.sh'], {
    cwd: clone,
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      SWITCHBOARD_URL: gw.url,
      NO_COLOR: '1',
    },
  });
  const run = { stdout: '', stderr: '', status: null as number | null };
  child.stdout.on('data', (chunk) => {
    run.stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    run.stderr += chunk;
  });
  const timer = setTimeout(() => child.kill(), 110_000);
  run.status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  const output = `${run.stdout}\n${run.stderr}`;
  expect(run.status, output).toBe(0);

  // The refusals the prose announces, in order: claimed by another, nothing to take, no provider.
  const exits = [...run.stdout.matchAll(/^exit (\d+)$/gm)].map((m) => Number(m[1]));
  expect(exits).toEqual([5, 12, 8]);
  expect(run.stderr).toContain('is claimed by editor');
  expect(run.stderr).toContain('NOT_RUNNING: editor: NO_PRESENCE_AT_START');
  expect(run.stdout).toContain('no presence provider reports on this goal');
  expect(run.stdout).toContain('(replayed: the original, not resent)');
  expect(run.stdout).toMatch(/read \d+ s ago, processed \d+ s ago/);
  expect(run.stdout).toContain('checkpoint recorded');
  expect(run.stdout).toContain('editor owes no replan checkpoint');
  expect(run.stdout).toContain(`goal ${goal} may not be closed`);
  expect(run.stdout).toContain('REPLAN_OWED: agent writer owes a replan checkpoint');
  expect(run.stdout).toContain('NO_ACCEPTANCE_EVIDENCE');
  // Tokens went from the gateway into profiles, never onto the screen.
  expect(output).not.toContain(gw.adminToken);
  expect(output).not.toMatch(/\bsb_[\w-]{20,}/);
}, 120_000);
