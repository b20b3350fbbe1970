/**
 * Real presence: `provider tmux` (the long-running tmux provider), `attach` and `run` (bind a
 * pane to a registered agent), `hook claude-code|codex|report` (lifecycle hooks, through the
 * provider's local socket) and `hooks install|uninstall claude-code`. The provider modules are
 * loaded lazily: the other verbs never pay for them.
 */
import { type Command, Option } from 'commander';
import {
  type BlockedKind,
  InboxDocument,
  Liveness,
  type PresenceBasis,
  TakeNextMessageDocument,
} from '../../client/index.ts';
import type { TmuxServer } from '../../providers/tmux/connection.ts';
import { type Context, collect, duration, examples, run } from '../context.ts';
import { runningBin, shellWord, unresolved } from '../executables.ts';
import { Exit, ExitCode, usage } from '../exit-codes.ts';

export interface ServerArgs {
  socket?: string;
  socketName?: string;
}

export const serverOf = (o: ServerArgs): TmuxServer => ({
  socketPath: o.socket,
  socketName: o.socketName,
});

export const withServer = (command: Command) =>
  command
    .option(
      '--socket <path>',
      'the tmux server socket (tmux -S) [default: $TMUX, else tmux default]',
    )
    .option('--socket-name <name>', 'the tmux server socket name (tmux -L)');

/**
 * The provider's hook socket: the pane's environment, else the tmux server's option. A hook
 * outside tmux asks no tmux server (`anywhere` asks the default one too).
 */
export async function hookSocket(
  server: TmuxServer,
  anywhere = false,
): Promise<string | undefined> {
  if (process.env.SWITCHBOARD_HOOK_SOCKET) return process.env.SWITCHBOARD_HOOK_SOCKET;
  if (!anywhere && !process.env.TMUX && !server.socketPath && !server.socketName) return undefined;
  const { tmux } = await import('../../providers/tmux/connection.ts');
  const out = await tmux(server, ['show-options', '-gqv', '@switchboard_hook_socket']).catch(
    () => '',
  );
  return out.trim() || undefined;
}

async function readStdin(limit = 1_000_000, timeoutMs = 5000): Promise<string> {
  if (process.stdin.isTTY) return '';
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(() => resolve(text), timeoutMs);
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => {
      if (text.length < limit) text += chunk;
    });
    process.stdin.on('end', () => {
      clearTimeout(timer);
      resolve(text);
    });
    process.stdin.on('error', () => resolve(text));
  });
}

const LIVENESS: readonly string[] = Object.values(Liveness);

/** Which source decided a pane's liveness, as --status names it. */
const SOURCE: Record<PresenceBasis, string> = {
  LIFECYCLE_HOOK: 'hooks',
  PROGRAM_STATUS: 'OSC 7501',
  PROVIDER_DETECTION: 'screen',
  SELF_REPORT: 'self',
};

export function tmuxCommands(program: Command): void {
  // ---- provider tmux ------------------------------------------------------------------
  const provider = program.command('provider').description('presence providers: tmux');
  withServer(
    provider
      .command('tmux')
      .description(
        'run the tmux presence provider (a PROVIDER credential): reports the liveness of panes bound to agents',
      )
      .option('--goal <id>', "a goal to serve (repeatable) [default: the credential's]", collect)
      .option(
        '--patterns <file>',
        'per-agent-kind prompt patterns (JSON), merged over the built-in ones',
      )
      .option(
        '--hook-socket <path>',
        'where hooks reach the provider [default: per server, private]',
      )
      .addOption(
        new Option(
          '--ttl <duration>',
          'presence TTL to declare, e.g. 60s (heartbeats every third of it)',
        )
          .argParser(duration)
          .default(60_000, '60s'),
      )
      .addOption(
        new Option(
          '--quiet-after <duration>',
          "how long a pane may go on writing after its hooks' or its program's (OSC 7501) last word before the next source decides",
        )
          .argParser(duration)
          .default(30_000, '30s'),
      )
      .option(
        '--host <name>',
        "the machine's name shown with each presence [default: its host name]",
      )
      .option(
        '--no-notices',
        'never type a notice of unread messages into a pane, nor show one in tmux (panes without hooks)',
      )
      .option(
        '--status',
        "print the running provider's panes (bindings, liveness, reasons) and exit",
      ),
  )
    .addHelpText(
      'after',
      examples(
        'switchboard provider tmux --goal demo   # with a PROVIDER token (SWITCHBOARD_TOKEN or a profile)',
        'switchboard provider tmux --status --json',
      ),
    )
    .action(
      run<
        ServerArgs & {
          goal?: string | string[];
          patterns?: string;
          hookSocket?: string;
          ttl: number;
          host?: string;
          quietAfter: number;
          notices: boolean;
          status?: boolean;
        }
      >(async (ctx, o) => {
        const server = serverOf(o);
        if (o.status) {
          const socket = o.hookSocket ?? (await hookSocket(server, true));
          if (!socket)
            throw new Exit(ExitCode.NOT_RUNNING, 'no tmux provider found for this tmux server');
          const { askProvider } = await import('../../providers/tmux/hooks.ts');
          const answer = await askProvider(socket, { op: 'status' }).catch((error: Error) => {
            throw new Exit(ExitCode.NOT_RUNNING, error.message);
          });
          if (!answer.ok || !answer.status) throw new Exit(ExitCode.ERROR, 'the provider refused');
          const status = answer.status;
          await ctx.print(status, () =>
            [
              `instance ${status.instanceId ?? '(no tmux server)'}; hook socket ${status.hookSocket}; notices ${status.notices ? 'on' : 'off'}`,
              ...status.panes.map(
                (p) =>
                  `${p.paneId} ${p.agentId}${p.goalId ? `@${p.goalId}` : ''} ${p.notReported ? `NOT REPORTED (${p.notReported})` : (p.liveness ?? '-')} ${p.kind} ${SOURCE[p.basis]}: ${p.reason}${p.notice ? `; notice: ${p.notice}` : ''}`,
              ),
            ].join('\n'),
          );
          return;
        }
        const me = await ctx.whoami();
        if (me.kind !== 'PROVIDER' || !me.providerId)
          throw new Exit(
            ExitCode.SCOPE_GAP,
            `provider tmux needs a PROVIDER credential, not ${me.kind}`,
          );
        // --goal is also a global option, which keeps only the last: read every occurrence.
        const named = goalFlags(process.argv);
        if (!named.length && o.goal) named.push(...([] as string[]).concat(o.goal));
        const goals = named.length ? named : me.goalIds;
        if (!goals.length) throw usage('no goal: pass --goal <id>');
        const [{ TmuxProvider }, { Patterns }] = await Promise.all([
          import('../../providers/tmux/provider.ts'),
          import('../../providers/tmux/patterns.ts'),
        ]);
        const { configDir } = await import('../../client/profiles.ts');
        const { existsSync } = await import('node:fs');
        const userPatterns = `${configDir()}/agent-patterns.json`;
        const patterns = Patterns.load(
          o.patterns ?? (existsSync(userPatterns) ? userPatterns : undefined),
        );
        const p = new TmuxProvider({
          client: ctx.client,
          providerId: me.providerId,
          goals,
          server,
          patterns,
          hookSocket: o.hookSocket,
          presenceTtlMs: o.ttl,
          host: o.host,
          quietMs: o.quietAfter,
          notices: o.notices,
          log: (line) => {
            if (!ctx.quiet) process.stderr.write(`switchboard provider: ${ctx.redact(line)}\n`);
          },
        });
        await p.start();
        if (!ctx.quiet)
          process.stderr.write(
            `switchboard provider: tmux provider ${me.providerId} for ${goals.join(', ')}; hook socket ${p.hookSocket}${o.notices ? '' : '; notices off'}\n`,
          );
        await new Promise<void>((resolve) => {
          const done = () => resolve();
          process.once('SIGINT', done);
          process.once('SIGTERM', done);
        });
        await p.stop();
      }),
    );

  // ---- attach / run ---------------------------------------------------------------------
  withServer(
    program
      .command('attach <agent>')
      .description('bind a tmux pane to a registered agent (pane option @switchboard_agent)')
      .option('--pane <id>', 'the pane (%N) [default: $TMUX_PANE]')
      .option(
        '--kind <kind>',
        'agent kind for screen patterns (claude-code, codex, gemini, aider, generic, …)',
      )
      .option('--detach', 'remove the binding instead'),
  )
    .addHelpText(
      'after',
      examples('switchboard attach builder', 'switchboard attach reviewer --pane %3 --kind codex'),
    )
    .action(
      run<ServerArgs & { pane?: string; kind?: string; detach?: boolean }, [string]>(
        async (ctx, o, agent) => {
          const server = serverOf(o);
          const pane = o.pane ?? process.env.TMUX_PANE;
          if (!pane) throw usage('no pane: pass --pane %N or run inside tmux');
          const [{ tmux }, { newPaneKey, paneKeyOption, PANE_KEY_ENV }] = await Promise.all([
            import('../../providers/tmux/connection.ts'),
            import('../../providers/tmux/pane-key.ts'),
          ]);
          const goal = ctx.connection.goal;
          const set = async (name: string, value: string | undefined) =>
            value === undefined || o.detach
              ? tmux(server, ['set-option', '-p', '-u', '-t', pane, name]).catch(() => '')
              : tmux(server, ['set-option', '-p', '-t', pane, name, value]);
          // The key its hooks prove the pane with: only a process given it can report for it.
          const pid = Number(
            (await tmux(server, ['display-message', '-p', '-t', pane, '#{pane_pid}'])).trim(),
          );
          const key = newPaneKey();
          await set('@switchboard_goal', goal);
          await set('@switchboard_kind', o.kind);
          await set('@switchboard_key', paneKeyOption(pid, key.hash));
          await set('@switchboard_agent', agent);
          const hookEnv = `export ${PANE_KEY_ENV}=${key.key}`;
          await ctx.print(
            {
              pane,
              agentId: agent,
              goalId: goal ?? null,
              kind: o.kind ?? null,
              attached: !o.detach,
              hookEnv: o.detach ? null : hookEnv,
            },
            () =>
              o.detach
                ? `${pane}: binding removed`
                : [
                    `${pane} → ${agent}${goal ? ` in ${goal}` : ''}`,
                    `for its hooks, start the agent in that pane after: ${hookEnv}`,
                  ].join('\n'),
          );
        },
      ),
    );

  withServer(
    program
      .command('run <agent> <command...>')
      .description(
        'open a tmux window running the command, bound to the agent, with the environment its hooks need',
      )
      .option('--kind <kind>', 'agent kind for screen patterns')
      .option(
        '--session <name>',
        'the tmux session to open it in (created if there is no server)',
        'switchboard',
      )
      .option(
        '--agent-profile <name>',
        'the login profile the agent and its hooks use (SWITCHBOARD_PROFILE)',
      ),
  )
    .addHelpText(
      'after',
      examples(
        'switchboard run builder -- claude',
        'switchboard run reviewer --kind codex -- codex',
      ),
    )
    .action(
      run<
        ServerArgs & { kind?: string; session: string; agentProfile?: string },
        [string, string[]]
      >(async (ctx, o, agent, command) => {
        const server = serverOf(o);
        const [{ tmux }, { newPaneKey, paneKeyOption, PANE_KEY_ENV }] = await Promise.all([
          import('../../providers/tmux/connection.ts'),
          import('../../providers/tmux/pane-key.ts'),
        ]);
        const socket = await hookSocket(server, true).catch(() => undefined);
        // The pane's key, in its process's environment only: its hooks prove the pane with it.
        const key = newPaneKey();
        const env: string[] = [`SWITCHBOARD_AGENT=${agent}`, `${PANE_KEY_ENV}=${key.key}`];
        if (ctx.connection.goal) env.push(`SWITCHBOARD_GOAL=${ctx.connection.goal}`);
        if (socket) env.push(`SWITCHBOARD_HOOK_SOCKET=${socket}`);
        if (process.env.SWITCHBOARD_URL) env.push(`SWITCHBOARD_URL=${process.env.SWITCHBOARD_URL}`);
        if (o.agentProfile) env.push(`SWITCHBOARD_PROFILE=${o.agentProfile}`);
        const envArgs = env.flatMap((e) => ['-e', e]);
        const hasServer = await tmux(server, ['has-session', '-t', `=${o.session}`])
          .then(() => true)
          .catch(() => false);
        const out = hasServer
          ? await tmux(server, [
              'new-window',
              '-d',
              '-P',
              '-F',
              '#{pane_id} #{pane_pid}',
              '-t',
              `=${o.session}:`,
              ...envArgs,
              ...command,
            ])
          : await tmux(server, [
              'new-session',
              '-d',
              '-P',
              '-F',
              '#{pane_id} #{pane_pid}',
              '-s',
              o.session,
              '-x',
              '160',
              '-y',
              '48',
              ...envArgs,
              ...command,
            ]);
        const [pane = '', pid] = out.trim().split(' ');
        if (ctx.connection.goal)
          await tmux(server, [
            'set-option',
            '-p',
            '-t',
            pane,
            '@switchboard_goal',
            ctx.connection.goal,
          ]);
        if (o.kind)
          await tmux(server, ['set-option', '-p', '-t', pane, '@switchboard_kind', o.kind]);
        // Keep the pane when its process exits until the provider has seen the exit (and
        // sent endPresence): it closes the pane then.
        await tmux(server, ['set-option', '-p', '-t', pane, 'remain-on-exit', 'on']);
        await tmux(server, ['set-option', '-p', '-t', pane, '@switchboard_reap', '1']);
        await tmux(server, [
          ...['set-option', '-p', '-t', pane, '@switchboard_key'],
          paneKeyOption(Number(pid), key.hash),
        ]);
        await tmux(server, ['set-option', '-p', '-t', pane, '@switchboard_agent', agent]);
        await ctx.print(
          { pane, agentId: agent, goalId: ctx.connection.goal ?? null, hookSocket: socket ?? null },
          () =>
            `${pane} → ${agent}: ${command.join(' ')}${socket ? '' : ' (no provider running yet: hooks will find it through tmux)'}`,
        );
      }),
    );

  // ---- hooks ----------------------------------------------------------------------------
  const hook = program
    .command('hook')
    .description("lifecycle hooks: report an agent's presence through the local tmux provider");

  withServer(
    hook
      .command('claude-code')
      .description(
        'Claude Code hook: reads the hook JSON on stdin; on Stop hands over the next message (decision: block), never while BLOCKED',
      )
      .option('--no-deliver', 'report presence only; never hand over a message')
      .addHelpText(
        'after',
        examples(
          'switchboard hooks install claude-code   # Claude Code then runs this on each event',
          'echo \'{"hook_event_name":"Stop"}\' | switchboard hook claude-code',
        ),
      ),
  ).action(
    run<ServerArgs & { deliver: boolean }>(async (ctx, o) => {
      const { claudeEffect } = await import('../../providers/tmux/hooks.ts');
      let payload: Record<string, unknown> = {};
      const text = await readStdin();
      try {
        payload = text.trim() ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        process.stderr.write('switchboard hook: stdin is not JSON; ignored\n');
        return;
      }
      const event = String(payload.hook_event_name ?? '');
      const effect = claudeEffect(payload);
      const reporter = await presenceReporter(ctx, serverOf(o));
      const before = await reporter.state();
      if (event === 'Stop') {
        if (before?.blocked) {
          note(ctx, 'the agent is BLOCKED: no message handed over');
          return;
        }
        const taken = o.deliver ? await takeMessage(ctx) : undefined;
        if (taken) {
          // The receipt the sender sees: handed over at a safe point (by the provider's credential).
          const receipt = await reporter.notice(taken.id, event);
          if (receipt?.notice !== 'recorded')
            note(
              ctx,
              `message ${taken.id} handed over; receipt ${receipt?.notice ?? 'not recorded'}`,
            );
          await reporter.report('WORKING', event);
          process.stdout.write(`${JSON.stringify({ decision: 'block', reason: taken.text })}\n`);
          return;
        }
        await reporter.report('DONE', event);
        return;
      }
      if (effect.kind === 'end') await reporter.end(event);
      else if (effect.kind === 'report')
        await reporter.report(effect.liveness, event, effect.blockedKind);
      if ((event === 'SessionStart' || event === 'UserPromptSubmit') && o.deliver) {
        const count = await unprocessed(ctx);
        if (count > 0)
          process.stdout.write(
            `${JSON.stringify({
              hookSpecificOutput: {
                hookEventName: event,
                additionalContext: `${count} unread message${count === 1 ? '' : 's'} — \`switchboard next\``,
              },
            })}\n`,
          );
      }
    }),
  );

  withServer(
    hook
      .command('codex [payload]')
      .description(
        'Codex `notify` program: the JSON payload as the last argument (agent-turn-complete → DONE)',
      )
      .addHelpText(
        'after',
        examples(
          'switchboard hook codex \'{"type":"agent-turn-complete"}\'   # ~/.codex/config.toml: notify = ["switchboard", "hook", "codex"]',
        ),
      ),
  ).action(
    run<ServerArgs, [string | undefined]>(async (ctx, o, payloadText) => {
      let payload: { type?: string } = {};
      try {
        payload = JSON.parse(payloadText ?? (await readStdin()) ?? '{}') as { type?: string };
      } catch {
        process.stderr.write('switchboard hook codex: payload is not JSON; ignored\n');
        return;
      }
      if (payload.type !== 'agent-turn-complete') return;
      const reporter = await presenceReporter(ctx, serverOf(o));
      await reporter.report('DONE', 'agent-turn-complete');
    }),
  );

  withServer(
    hook
      .command('report <liveness>')
      .description(
        `report the pane's liveness from any agent's own hooks: ${LIVENESS.join(', ').toLowerCase()}, or ended`,
      )
      .addHelpText(
        'after',
        examples('switchboard hook report working', 'switchboard hook report ended'),
      ),
  ).action(
    run<ServerArgs, [string]>(async (ctx, o, value) => {
      const upper = value.toUpperCase();
      if (upper !== 'ENDED' && !LIVENESS.includes(upper))
        throw usage(`liveness must be one of ${LIVENESS.join(', ').toLowerCase()}, ended`);
      const reporter = await presenceReporter(ctx, serverOf(o), true);
      if (upper === 'ENDED') await reporter.end('report ended');
      else await reporter.report(upper as Liveness, `report ${value}`);
    }),
  );

  const hooks = program.command('hooks').description('install or remove agent lifecycle hooks');
  for (const action of ['install', 'uninstall'] as const)
    hooks
      .command(`${action} <agent>`)
      .description(
        action === 'install'
          ? 'write the Claude Code hook configuration with the absolute path of this switchboard (idempotent)'
          : 'remove the hook configuration install wrote: the file as it was before, when nothing else changed',
      )
      .option('--project', 'this project: .claude/settings.json (default)')
      .option('--user', 'your user: ~/.claude/settings.json')
      .addHelpText(
        'after',
        examples(
          `switchboard hooks ${action} claude-code`,
          `switchboard hooks ${action} claude-code --user`,
        ),
      )
      .action(
        run<{ project?: boolean; user?: boolean }, [string]>(async (ctx, o, agent) => {
          if (agent !== 'claude-code')
            throw usage(
              'only claude-code hooks can be installed (codex: set notify = ["/absolute/path/to/switchboard", "hook", "codex"])',
            );
          const [mod, { readOriginals, writeOriginals }] = await Promise.all([
            import('../../providers/tmux/hooks.ts'),
            import('../hook-originals.ts'),
          ]);
          const file = mod.claudeSettingsPath(o.user ? 'user' : 'project');
          const originals = readOriginals();
          let events: string[];
          try {
            if (action === 'install') {
              const installed = mod.installClaudeHooks(file, hookCommand(mod.HOOK_ARGS));
              events = installed.events;
              if (events.length && !(file in originals)) {
                originals[file] = installed.before;
                writeOriginals(originals);
              }
            } else {
              events = mod.uninstallClaudeHooks(file, originals[file]);
              if (file in originals) {
                delete originals[file];
                writeOriginals(originals);
              }
            }
          } catch (error) {
            if (error instanceof Exit) throw error;
            throw new Exit(ExitCode.ERROR, (error as Error).message);
          }
          await ctx.print({ file, action, events }, () =>
            events.length
              ? `${action === 'install' ? 'installed' : 'removed'} ${events.join(', ')} in ${file}`
              : `${file}: nothing to ${action === 'install' ? 'add (already installed)' : 'remove'}`,
          );
        }),
      );
}

/**
 * The hook command: this switchboard bin by its absolute path, so it runs whatever PATH the
 * agent starts its hooks with; refused (nothing written) when it would not run as written.
 */
function hookCommand(args: string): string {
  const bin = runningBin();
  if (!bin)
    throw new Exit(
      ExitCode.ERROR,
      'cannot tell where the switchboard bin is: run `npm link` in the clone, then `switchboard hooks install claude-code` (nothing was written)',
    );
  const command = `${shellWord(bin)} ${args}`;
  const why = unresolved(command);
  if (why)
    throw new Exit(
      ExitCode.ERROR,
      `the hook command would not run: ${why}; fix that, then install again (nothing was written)`,
    );
  return command;
}

/** Every `--goal X` / `--goal=X` of the command line, in order. */
function goalFlags(argv: string[]): string[] {
  const goals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    if (arg === '--goal' && argv[i + 1]) goals.push(argv[++i] as string);
    else if (arg.startsWith('--goal=')) goals.push(arg.slice(7));
  }
  return goals;
}

function note(ctx: Context, text: string): void {
  if (!ctx.quiet) process.stderr.write(`switchboard hook: ${text}\n`);
}

/** Reports through the local provider; a hook never fails its agent (notes go to stderr). */
async function presenceReporter(ctx: Context, server: TmuxServer, strict = false) {
  const socket = await hookSocket(server).catch(() => undefined);
  const pane = process.env.TMUX_PANE;
  const [{ askProvider }, { PANE_KEY_ENV }] = await Promise.all([
    import('../../providers/tmux/hooks.ts'),
    import('../../providers/tmux/pane-key.ts'),
  ]);
  const key = process.env[PANE_KEY_ENV];
  const fail = (text: string) => {
    if (strict) throw new Exit(ExitCode.NOT_RUNNING, text);
    note(ctx, text);
  };
  const ask = async (request: Parameters<typeof askProvider>[1]) => {
    if (!socket || !pane) {
      fail(
        'no tmux provider for this pane (SWITCHBOARD_HOOK_SOCKET, TMUX_PANE): presence not reported',
      );
      return undefined;
    }
    try {
      const answer = await askProvider(socket, { ...request, pane, key });
      if (!answer.ok) fail(answer.error);
      return answer.ok ? answer : undefined;
    } catch (error) {
      fail((error as Error).message);
      return undefined;
    }
  };
  return {
    async state() {
      if (!socket || !pane) return undefined;
      return ask({ op: 'state' });
    },
    async report(liveness: Liveness, event: string, blockedKind?: BlockedKind) {
      const answer = await ask({ op: 'report', liveness, event, blockedKind });
      if (answer && ctx.json) process.stderr.write(`${JSON.stringify(answer)}\n`);
      return answer;
    },
    async end(event: string) {
      return ask({ op: 'end', event });
    },
    /** Asks the provider to record the LIFECYCLE_HOOK receipt of a message handed over. */
    async notice(deliveryId: string, event: string) {
      return ask({ op: 'notice', deliveryId, event });
    },
  };
}

/** Takes the agent's next message (its own PEER credential): its id and the text for Claude, or none. */
async function takeMessage(ctx: Context): Promise<{ id: string; text: string } | undefined> {
  if (!ctx.connection.token) {
    note(ctx, 'no credential for the agent (switchboard login): no message handed over');
    return undefined;
  }
  try {
    const goalId = await ctx.goal();
    const { takeNextMessage: taken } = await ctx.client.request(TakeNextMessageDocument, {
      goalId,
    });
    if (taken.__typename !== 'TakenMessage') return undefined;
    if (taken.repeated) {
      note(
        ctx,
        `message ${taken.message.id} is still active (handed over before): resolve or release it`,
      );
      return undefined;
    }
    const m = taken.message;
    const text = [
      `Switchboard: a ${m.kind.toLowerCase()} from ${m.from}${m.subject ? `: ${m.subject}` : ''} (message ${m.id}${m.todoId ? `, todo ${m.todoId}` : ''}).`,
      '',
      m.body ?? m.bodyPreview ?? '',
      '',
      `Handle it, then run \`switchboard resolve ${m.id}\` (or \`switchboard release ${m.id}\` to put it back).`,
    ].join('\n');
    return { id: m.id, text };
  } catch (error) {
    note(ctx, `could not take the next message: ${(error as Error).message}`);
    return undefined;
  }
}

async function unprocessed(ctx: Context): Promise<number> {
  if (!ctx.connection.token) return 0;
  try {
    const goalId = await ctx.goal();
    const { inbox } = await ctx.client.request(InboxDocument, {
      goalId,
      unprocessed: true,
      tail: 1,
    });
    return inbox.__typename === 'Inbox' ? inbox.unprocessedCount : 0;
  } catch {
    return 0;
  }
}
