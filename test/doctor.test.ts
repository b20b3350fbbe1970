/**
 * `switchboard doctor` (the binary, as a subprocess) against a real gateway, a real tmux
 * provider, hooks installed by `hooks install` and the bin on PATH through a link: green, then
 * each part broken in turn, named with its fix and the documented exit code. Also what `hooks
 * install` writes (a command that resolves, else nothing) and that `hooks uninstall` puts the
 * settings file back exactly, and `run` finding the provider of the default tmux server.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  asCaller,
  BIN,
  type RunResult,
  runCli,
  startGateway,
  team,
  tempHome,
} from './support/cli.ts';
import { requires } from './support/requires.ts';
import { type Gw, sandbox, startProvider } from './support/tmux.ts';

let gw: Gw;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

/** A folder with `switchboard` linked to the bin, as `npm link` makes one. */
function linkedBin(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sb-bin-'));
  symlinkSync(BIN, path.join(dir, 'switchboard'));
  return dir;
}
/** PATH with node (the bin's `#!/usr/bin/env node`) and tmux, but no switchboard. */
const BASE_PATH = [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(
  path.delimiter,
);

const checks = (result: RunResult) =>
  Object.fromEntries(result.json().checks.map((c: any) => [c.check, c]));

requires('tmux')('switchboard doctor', { timeout: 300_000 }, () => {
  it('is green with everything up, then names each broken part, its fix and exit code', async () => {
    const box = sandbox();
    const { goalId, a } = await team(gw.t, ['a']);
    await box.tmux('new-session', '-d', '-s', 'base');
    const provider = await startProvider(gw, box, [goalId]);
    try {
      const home = tempHome();
      const bin = linkedBin();
      const env = {
        ...asCaller(gw.url, a.token, goalId),
        HOME: home,
        PATH: `${bin}${path.delimiter}${BASE_PATH}`,
      };
      const run = await runCli(['run', a.agentId, '--socket', box.sock, '--json', '--', 'sh'], {
        env: { ...env, SWITCHBOARD_HOOK_SOCKET: undefined },
      });
      expect(run.code, run.stderr).toBe(0);
      const pane = run.json().pane;
      expect(run.json().hookSocket).toBe(box.hookSock);
      const install = await runCli(['hooks', 'install', 'claude-code', '--user', '--json'], {
        env,
      });
      expect(install.code, install.stderr).toBe(0);
      const doctor = (over: Record<string, string | undefined> = {}, extra: string[] = []) =>
        runCli(['doctor', '--socket', box.sock, '--json', ...extra], {
          env: { ...env, TMUX_PANE: pane, ...over },
        });

      const green = await doctor();
      expect(green.code, green.stdout).toBe(0);
      expect(green.json().ok).toBe(true);
      expect(green.json().checks.map((c: any) => [c.check, c.status])).toEqual([
        ['gateway', 'ok'],
        ['doorbell', 'ok'],
        ['token', 'ok'],
        ['provider', 'ok'],
        ['hooks', 'ok'],
        ['bin', 'ok'],
      ]);
      expect(checks(green).token.detail).toContain(`PEER, agent ${a.agentId} in goal ${goalId}`);
      expect(checks(green).provider.detail).toContain(`this pane ${pane} is ${a.agentId}`);
      expect(checks(green).bin.detail).toContain(path.join(bin, 'switchboard'));
      // two gateways named, one down: ready through the other
      const either = await doctor({ SWITCHBOARD_URL: `http://127.0.0.1:9/graphql,${gw.url}` });
      expect(either.code, either.stdout).toBe(0);
      expect(checks(either).gateway.detail).toMatch(
        /cannot reach http:\/\/127\.0\.0\.1:9\/readyz.*; ready at/,
      );
      const human = await runCli(['doctor', '--socket', box.sock], {
        env: { ...env, TMUX_PANE: pane },
      });
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^ok {3}gateway/m);

      const broken = async (
        over: Record<string, string | undefined>,
        check: string,
        exitCode: number,
        fix: RegExp,
      ) => {
        const result = await doctor(over);
        expect(result.code, result.stdout).toBe(exitCode);
        const out = result.json();
        expect(out.ok).toBe(false);
        expect(out.error).toMatchObject({ exitCode, reason: check });
        expect(checks(result)[check]).toMatchObject({
          status: 'fail',
          fix: expect.stringMatching(fix),
        });
        expect(result.stderr).toContain(`first ${check}`);
        return checks(result);
      };

      const down = await broken(
        { SWITCHBOARD_URL: 'http://127.0.0.1:9/graphql' },
        'gateway',
        10,
        /SWITCHBOARD_URL/,
      );
      expect(down.doorbell.status).toBe('skipped');
      expect(down.token.status).toBe('skipped');
      await broken(
        { SWITCHBOARD_TOKEN: 'revoked-or-never-issued' },
        'token',
        3,
        /switchboard login/,
      );
      await broken({ SWITCHBOARD_TOKEN: undefined }, 'token', 3, /switchboard login/);
      const other = (await box.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', 'sh')).trim();
      await broken({ TMUX_PANE: other }, 'provider', 8, /switchboard attach <agent>/);
      await broken({ PATH: BASE_PATH }, 'bin', 1, /npm link/);

      // a hook command that does not resolve as written: the bare name, off PATH
      const settingsFile = path.join(home, '.claude', 'settings.json');
      const installed = readFileSync(settingsFile, 'utf8');
      // the bin this install ran as, by its absolute path
      expect(JSON.parse(installed).hooks.Stop[0].hooks[0].command).toBe(`${BIN} hook claude-code`);
      writeFileSync(settingsFile, installed.replaceAll(BIN, 'switchboard'));
      const bare = await broken(
        { PATH: BASE_PATH },
        'hooks',
        1,
        /hooks install claude-code --user/,
      );
      expect(bare.hooks.detail).toContain('switchboard is not on PATH');
      // install again rewrites the command with the bin's absolute path
      const again = await runCli(['hooks', 'install', 'claude-code', '--user', '--json'], { env });
      expect(again.json().events).toHaveLength(6);
      expect(readFileSync(settingsFile, 'utf8')).toBe(installed);
      expect((await runCli(['hooks', 'uninstall', 'claude-code', '--user'], { env })).code).toBe(0);
      await broken({}, 'hooks', 1, /switchboard hooks install claude-code/);

      await provider.stop();
      await broken({}, 'provider', 8, /switchboard provider tmux/);
    } finally {
      await provider.stop();
      await box.cleanup();
    }
  });

  it('a deaf doorbell: the gateway reachable, the doorbell failed with its reason', async () => {
    // What a gateway's /readyz answers while its doorbell is deaf (src/server.ts).
    const deaf: Server = createServer((request, response) => {
      response.writeHead(request.url === '/readyz' ? 503 : 404, {
        'content-type': 'application/json',
      });
      response.end(
        JSON.stringify({
          status: 'doorbell not listening',
          reason: 'listen connection lost',
          since: '2026-01-01T00:00:00.000Z',
        }),
      );
    });
    await new Promise<void>((resolve) => deaf.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(deaf.address() as AddressInfo).port}/graphql`;
      const result = await runCli(['doctor', '--json'], { env: { SWITCHBOARD_URL: url } });
      expect(result.code).toBe(1); // the first failing check: the doorbell
      expect(checks(result).gateway.status).toBe('ok');
      expect(checks(result).doorbell).toMatchObject({
        status: 'fail',
        detail: expect.stringContaining('listen connection lost'),
        fix: expect.stringContaining('database'),
      });
    } finally {
      await new Promise((resolve) => deaf.close(resolve));
    }
  });
});

it('hooks install refuses, writing nothing, when the command would not run; uninstall restores the file exactly', async () => {
  const home = tempHome();
  const settings = path.join(home, '.claude', 'settings.json');
  // node not on PATH: the bin's `#!/usr/bin/env node` would not run as written
  const refused = await runCli(['hooks', 'install', 'claude-code', '--user', '--json'], {
    env: { HOME: home, PATH: '/nonexistent' },
  });
  expect(refused.code).toBe(1);
  expect(refused.json().error.message).toContain('node, which is not on PATH');
  expect(existsSync(settings)).toBe(false);

  const env = { HOME: home, PATH: BASE_PATH };
  // no file before: none after
  expect((await runCli(['hooks', 'install', 'claude-code', '--user'], { env })).code).toBe(0);
  expect(existsSync(settings)).toBe(true);
  expect((await runCli(['hooks', 'uninstall', 'claude-code', '--user'], { env })).code).toBe(0);
  expect(existsSync(settings)).toBe(false);

  // a file of its own formatting: back byte for byte
  mkdirSync(path.dirname(settings), { recursive: true });
  const own =
    '{"model":"opus",   "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}';
  writeFileSync(settings, own);
  await runCli(['hooks', 'install', 'claude-code', '--user'], { env });
  await runCli(['hooks', 'install', 'claude-code', '--user'], { env });
  expect(JSON.parse(readFileSync(settings, 'utf8')).hooks.Stop).toHaveLength(2);
  await runCli(['hooks', 'uninstall', 'claude-code', '--user'], { env });
  expect(readFileSync(settings, 'utf8')).toBe(own);

  // changed meanwhile: only what install wrote goes, the change stays
  await runCli(['hooks', 'install', 'claude-code', '--user'], { env });
  const changed = JSON.parse(readFileSync(settings, 'utf8'));
  changed.theme = 'dark';
  writeFileSync(settings, JSON.stringify(changed));
  await runCli(['hooks', 'uninstall', 'claude-code', '--user'], { env });
  expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual({ ...JSON.parse(own), theme: 'dark' });
});

requires('tmux')('switchboard run', { timeout: 60_000 }, () => {
  it('finds the provider of the default tmux server from outside tmux', async () => {
    // The default server of a private TMUX_TMPDIR: what `tmux` alone reaches, and only here.
    const tmuxTmp = mkdtempSync(path.join(tmpdir(), 'sb-tmux-default-'));
    const box = sandbox();
    const defaultSock = path.join(tmuxTmp, `tmux-${process.getuid?.()}`, 'default');
    const { goalId, a } = await team(gw.t, ['a']);
    const { execFileSync } = await import('node:child_process');
    execFileSync('tmux', ['new-session', '-d', '-s', 'base'], {
      env: { ...process.env, TMUX: undefined, TMUX_TMPDIR: tmuxTmp },
    });
    const provider = await startProvider(gw, { ...box, sock: defaultSock }, [goalId], [], {
      env: { TMUX_TMPDIR: tmuxTmp },
    });
    try {
      const run = await runCli(['run', a.agentId, '--json', '--', 'sh'], {
        env: { ...asCaller(gw.url, a.token, goalId), TMUX_TMPDIR: tmuxTmp },
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.json().hookSocket).toBe(box.hookSock);
      const human = await runCli(['run', a.agentId, '--', 'sh'], {
        env: { ...asCaller(gw.url, a.token, goalId), TMUX_TMPDIR: tmuxTmp },
      });
      expect(human.stdout).not.toContain('no provider running');
    } finally {
      await provider.stop();
      try {
        execFileSync('tmux', ['-S', defaultSock, 'kill-server'], { stdio: 'ignore' });
      } catch {}
      await box.cleanup();
    }
  });
});
