/**
 * doctor: is this agent's setup working? The gateway reachable and ready, its doorbell
 * listening, the token valid and its scope, the tmux provider answering on its hook socket for
 * this pane, the Claude Code hooks installed and runnable as written, the bin on PATH. Each
 * check that fails says how to fix it in one line.
 */
import type { Command } from 'commander';
import { gatewayUrls } from '../../client/gateways.ts';
import { ClientError, ClientErrorKind } from '../../client/index.ts';
import { type Context, examples, run } from '../context.ts';
import { unresolved, which } from '../executables.ts';
import { Exit, ExitCode } from '../exit-codes.ts';
import { bold, dim } from '../output.ts';
import { hookSocket, type ServerArgs, serverOf, withServer } from './tmux.ts';

type Status = 'ok' | 'fail' | 'skipped';
interface Check {
  check: string;
  status: Status;
  detail: string;
  /** One line that fixes it (a failed check only). */
  fix?: string;
}

/** The exit code of each check when it is the first to fail. */
const EXIT: Record<string, ExitCode> = {
  gateway: ExitCode.SERVER_UNREACHABLE,
  token: ExitCode.UNAUTHENTICATED,
  provider: ExitCode.NOT_RUNNING,
};

const ok = (check: string, detail: string): Check => ({ check, status: 'ok', detail });
const fail = (check: string, detail: string, fix: string): Check => ({
  check,
  status: 'fail',
  detail,
  fix,
});
const skipped = (check: string, detail: string): Check => ({ check, status: 'skipped', detail });

/** One gateway and its doorbell, from its /readyz. */
async function probe(url: string, urlSource: string): Promise<[Check, Check]> {
  const readyz = new URL('/readyz', url).href;
  let status: number;
  let body: { status?: string; reason?: string; since?: string; driver?: string };
  try {
    const response = await fetch(readyz, { signal: AbortSignal.timeout(5000) });
    status = response.status;
    body = (await response.json().catch(() => ({}))) as typeof body;
  } catch {
    return [
      fail(
        'gateway',
        `cannot reach ${readyz} (url from ${urlSource})`,
        'start the gateway (`npm start` in the clone), or point SWITCHBOARD_URL / --url at where it listens',
      ),
      skipped('doorbell', 'the gateway is not reachable'),
    ];
  }
  if (status === 200)
    return [
      ok('gateway', `ready at ${url} (${body.driver ?? 'database'} reachable)`),
      ok('doorbell', 'listening: streams are told of each change at once'),
    ];
  if (body.status === 'doorbell not listening')
    return [
      ok('gateway', `reachable at ${url}`),
      fail(
        'doorbell',
        `not listening since ${body.since ?? '?'}: ${body.reason ?? 'unknown reason'} (streams poll meanwhile)`,
        "check the gateway's database connection (LISTEN/NOTIFY) and its log; it rejoins by itself once the database answers",
      ),
    ];
  return [
    fail(
      'gateway',
      `reachable at ${url} but not ready: ${body.status ?? `HTTP ${status}`}`,
      body.status === 'stopping'
        ? 'it is shutting down: start it again'
        : body.status === 'database unreachable'
          ? 'check that its database is up and DATABASE_URL points at it'
          : 'is this a Switchboard gateway? check SWITCHBOARD_URL / --url',
    ),
    skipped('doorbell', 'the gateway is not ready'),
  ];
}

/**
 * The gateways SWITCHBOARD_URL names (one, or a comma list the client moves along): ready when
 * one is; the doorbell of the first ready one.
 */
async function gatewayChecks(ctx: Context): Promise<[Check, Check]> {
  const { url, urlSource } = ctx.connection;
  const urls = gatewayUrls(url);
  const probes = await Promise.all(urls.map((one) => probe(one, urlSource)));
  if (probes.length === 1) return probes[0] as [Check, Check];
  const ready = probes.find(([gateway]) => gateway.status === 'ok');
  const detail = probes.map(([gateway]) => gateway.detail).join('; ');
  if (!ready)
    return [{ ...(probes[0] as [Check, Check])[0], detail }, (probes[0] as [Check, Check])[1]];
  return [ok('gateway', detail), ready[1]];
}

async function tokenCheck(ctx: Context, gatewayUp: boolean): Promise<Check> {
  if (!ctx.connection.token)
    return fail(
      'token',
      'no token (flag, SWITCHBOARD_TOKEN or profile)',
      'switchboard login <name> --token-file F (or export SWITCHBOARD_TOKEN)',
    );
  if (!gatewayUp) return skipped('token', 'the gateway is not reachable');
  try {
    const me = await ctx.whoami();
    const scope =
      me.kind === 'PEER'
        ? `agent ${me.agentId} in goal ${me.goalId}`
        : me.kind === 'PROVIDER'
          ? `provider ${me.providerId} for ${me.goalIds.join(', ') || 'no goal'}`
          : `goals ${me.goalIds.join(', ') || 'all'}`;
    return ok('token', `valid: ${me.kind}, ${scope}`);
  } catch (error) {
    if (error instanceof ClientError && error.kind === ClientErrorKind.UNAUTHENTICATED)
      return fail(
        'token',
        'the gateway refused it (bad, revoked or expired, or its agent retired)',
        'ask an operator for a new one (switchboard admin token issue), then switchboard login <name> --token-file F',
      );
    return fail('token', `cannot check it: ${(error as Error).message}`, 'rerun with --debug');
  }
}

async function providerCheck(o: ServerArgs): Promise<Check> {
  const socket = await hookSocket(serverOf(o), true).catch(() => undefined);
  const start =
    'start one with a PROVIDER token: switchboard provider tmux --goal <goal> (it runs until stopped)';
  if (!socket) return fail('provider', 'no tmux provider found for this tmux server', start);
  const { askProvider } = await import('../../providers/tmux/hooks.ts');
  const answer = await askProvider(socket, { op: 'status' }).catch((error: Error) => error);
  if (answer instanceof Error || !answer.ok || !answer.status)
    return fail(
      'provider',
      `its hook socket ${socket} does not answer${answer instanceof Error ? `: ${answer.message}` : ''}`,
      `${start}; a stale SWITCHBOARD_HOOK_SOCKET in this environment names an old one`,
    );
  const running = `running (hook socket ${socket})`;
  const pane = process.env.TMUX_PANE;
  if (!pane) return ok('provider', `${running}; not in a tmux pane`);
  const bound = answer.status.panes.find((p) => p.paneId === pane);
  if (!bound)
    return fail(
      'provider',
      `${running}, but this pane ${pane} is bound to no agent`,
      'switchboard attach <agent> in this pane, or start the agent with switchboard run <agent> -- <command>',
    );
  return ok('provider', `${running}; this pane ${pane} is ${bound.agentId}`);
}

async function hooksCheck(): Promise<Check> {
  const { claudeSettingsPath, installedClaudeHooks } = await import(
    '../../providers/tmux/hooks.ts'
  );
  const found: string[] = [];
  for (const scope of ['project', 'user'] as const) {
    const file = claudeSettingsPath(scope);
    let hooks: ReturnType<typeof installedClaudeHooks>;
    try {
      hooks = installedClaudeHooks(file);
    } catch (error) {
      return fail('hooks', (error as Error).message, `fix the JSON of ${file}`);
    }
    const reinstall = `switchboard hooks install claude-code${scope === 'user' ? ' --user' : ''} (writes this bin's absolute path)`;
    for (const command of new Set(hooks.map((h) => h.command))) {
      const why = unresolved(command);
      if (why) return fail('hooks', `${file}: \`${command}\` would not run: ${why}`, reinstall);
    }
    if (hooks.length) found.push(`${file}: ${hooks.length} events run \`${hooks[0]?.command}\``);
  }
  if (!found.length)
    return fail(
      'hooks',
      'no Claude Code hooks installed (project or user settings)',
      'switchboard hooks install claude-code (this project) or --user (every project)',
    );
  return ok('hooks', found.join('; '));
}

function binCheck(): Check {
  const bin = which('switchboard');
  return bin
    ? ok('bin', `switchboard on PATH: ${bin}`)
    : fail(
        'bin',
        'switchboard is not on PATH',
        'run `npm link` in the clone (or `npm install -g <path to the clone>`)',
      );
}

const human = (packet: { checks: Check[] }) =>
  packet.checks
    .map(
      (c) =>
        `${c.status === 'ok' ? 'ok  ' : c.status === 'fail' ? bold('FAIL') : dim('skip')} ${c.check.padEnd(8)} ${c.detail}${c.fix ? `\n              fix: ${c.fix}` : ''}`,
    )
    .join('\n');

export function doctorCommand(program: Command): void {
  withServer(
    program
      .command('doctor')
      .description(
        'check this setup: gateway and doorbell, token, tmux provider and this pane, hooks, bin on PATH; each failure with its fix',
      ),
  )
    .addHelpText(
      'after',
      `${examples('switchboard doctor', 'switchboard doctor --json | jq \'.checks[] | select(.status == "fail")\'')}

Exit code: 0 when no check fails, else that of the first failing check: 10 gateway, 3 token,
8 provider, 1 doorbell, hooks or bin.`,
    )
    .action(
      run<ServerArgs>(async (ctx, o) => {
        const [gateway, doorbell] = await gatewayChecks(ctx);
        const checks = [
          gateway,
          doorbell,
          await tokenCheck(ctx, gateway.status === 'ok'),
          await providerCheck(o),
          await hooksCheck(),
          binCheck(),
        ];
        const failed = checks.find((c) => c.status === 'fail');
        const packet = { ok: !failed, checks };
        const failure =
          failed &&
          new Exit(
            EXIT[failed.check] ?? ExitCode.ERROR,
            `${checks.filter((c) => c.status === 'fail').length} check(s) failed, first ${failed.check}: ${failed.fix}`,
            failed.check,
          );
        // the checks are the answer, failing or not
        if (failure && !ctx.json) await ctx.print(packet, human);
        await ctx.finish(packet, human, failure);
      }),
    );
}
