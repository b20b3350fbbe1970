/**
 * The hook socket's folder is the user's own: with a second Unix user made for the test, a
 * default folder that user owns (or one open to others) is never used — the provider listens in
 * a fresh private folder and says so — and a --hook-socket given in such a folder is an error.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { asCaller, issueCredential, runCli, startGateway, team, uid } from './support/cli.ts';
import { requires } from './support/requires.ts';
import {
  type Gw,
  liveness,
  paneEnv,
  presenceOf,
  presenceUntil,
  runStandin,
  sandbox,
  startProvider,
} from './support/tmux.ts';

let gw: Gw;
const other = { name: `sbt${Math.random().toString(36).slice(2, 9)}`, uid: -1, gid: -1 };
beforeAll(async () => {
  gw = await startGateway();
  execFileSync('useradd', [
    '--system',
    '--no-create-home',
    '--shell',
    '/usr/sbin/nologin',
    other.name,
  ]);
  other.uid = Number(execFileSync('id', ['-u', other.name], { encoding: 'utf8' }));
  other.gid = Number(execFileSync('id', ['-g', other.name], { encoding: 'utf8' }));
});
afterAll(async () => {
  execFileSync('userdel', [other.name]);
  await gw?.close();
});

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A temporary folder standing for /tmp (TMPDIR), and the default hook folder in it. */
function tmp() {
  const dir = mkdtempSync(path.join(tmpdir(), 'sb-tmpdir-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, defaultFolder: path.join(dir, `switchboard-${process.getuid?.()}`) };
}

async function providerWith(env: Record<string, string | undefined>) {
  const box = sandbox();
  cleanups.push(() => box.cleanup());
  const { goalId, peers } = await team(gw.t, ['a']);
  const agentId = peers[0]!.agentId;
  const pane = await runStandin(gw, box, goalId, agentId);
  const provider = await startProvider(gw, box, [goalId], [], { hookSocket: false, env });
  cleanups.push(() => provider.stop());
  const socket = /; hook socket (\S+)/.exec(provider.stderr)?.[1] as string;
  return { box, goalId, agentId, pane, provider, socket };
}

/** The provider works on its fallback socket: presence flows and the pane's hooks reach it. */
async function works(p: Awaited<ReturnType<typeof providerWith>>) {
  await presenceUntil(gw, p.goalId, p.agentId, liveness('IDLE'), 'IDLE');
  const folder = statSync(path.dirname(p.socket));
  expect(folder.uid).toBe(process.getuid?.());
  expect(folder.mode & 0o777).toBe(0o700);
  const status = await runCli(['provider', 'tmux', '--status', '--json', '--socket', p.box.sock]);
  expect(status.json().hookSocket).toBe(p.socket);
  const { SWITCHBOARD_PANE_KEY } = await paneEnv(p.box, p.pane);
  const hook = await runCli(['hook', 'report', 'working', '--socket', p.box.sock], {
    env: { TMUX_PANE: p.pane, SWITCHBOARD_PANE_KEY },
  });
  expect(hook.code).toBe(0);
  expect(await presenceOf(gw, p.goalId, p.agentId)).toMatchObject({
    liveness: 'WORKING',
    basis: 'LIFECYCLE_HOOK',
  });
}

requires('tmux')('the hook socket folder', { timeout: 60_000 }, () => {
  it("a default folder another user made (open to all) is refused: the provider listens in a fresh private folder, and the other user's gets nothing", async () => {
    const { dir, defaultFolder } = tmp();
    mkdirSync(defaultFolder);
    chownSync(defaultFolder, other.uid, other.gid);
    chmodSync(defaultFolder, 0o777);
    const p = await providerWith({ TMPDIR: dir });
    expect(p.provider.stderr).toContain(
      `the hook socket's folder ${defaultFolder} is owned by uid ${other.uid}, not by this user (${process.getuid?.()}): listening in`,
    );
    expect(p.socket.startsWith(`${defaultFolder}/`)).toBe(false);
    await works(p);
    expect(readdirSync(defaultFolder)).toEqual([]);
  });

  it('an $XDG_RUNTIME_DIR of this user that is open to others is refused the same way', async () => {
    const { dir } = tmp();
    const runtime = path.join(dir, 'runtime');
    mkdirSync(runtime);
    chmodSync(runtime, 0o777);
    const p = await providerWith({ TMPDIR: dir, XDG_RUNTIME_DIR: runtime });
    expect(p.provider.stderr).toContain(
      `the hook socket's folder ${runtime} is open to others (mode 777, not 700)`,
    );
    expect(path.dirname(p.socket)).not.toBe(runtime);
    await works(p);
    expect(readdirSync(runtime)).toEqual([]);
  });

  it('a --hook-socket in a folder another user owns: the provider does not start, and says why', async () => {
    const { dir } = tmp();
    const theirs = path.join(dir, 'theirs');
    mkdirSync(theirs, { mode: 0o700 });
    chownSync(theirs, other.uid, other.gid);
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    const { goalId } = await team(gw.t, ['a']);
    const providerId = uid('tmux');
    const { token } = await issueCredential(gw.t, {
      kind: 'PROVIDER',
      providerId,
      goalIds: [goalId],
    });
    const r = await runCli(
      [
        'provider',
        'tmux',
        '--socket',
        box.sock,
        '--goal',
        goalId,
        '--hook-socket',
        path.join(theirs, 'hook.sock'),
      ],
      { env: asCaller(gw.url, token) },
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      `the hook socket's folder ${theirs} is owned by uid ${other.uid}, not by this user (${process.getuid?.()}): refusing to listen there`,
    );
    expect(readdirSync(theirs)).toEqual([]);
  });
});
