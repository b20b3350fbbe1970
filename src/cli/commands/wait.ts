/** wait: an identity-pinned wait on one or more agents, followed across reconnects. */
import type { Command } from 'commander';
import {
  type Liveness,
  StartWaitDocument,
  settledLiveness,
  WaitDocument,
  type WaitFieldsFragment,
} from '../../client/index.ts';
import { type Context, duration, examples, run } from '../context.ts';
import { Exit, ExitCode, usage } from '../exit-codes.ts';
import { failureOf } from '../outcomes.ts';
import { bold, dim, inert, liveness } from '../output.ts';

function parseUntil(value: string): Liveness[] {
  const parts = value
    .split(',')
    .map((p) => p.trim().toUpperCase())
    .filter(Boolean);
  const bad = parts.filter((p) => !(settledLiveness as readonly string[]).includes(p));
  if (parts.length === 0 || bad.length)
    throw usage(
      `--until takes liveness values (${settledLiveness.join(',').toLowerCase()}): not ${bad.join(', ')}`,
    );
  return parts as Liveness[];
}

/** The exit for a wait's terminal state. */
export function waitExit(wait: WaitFieldsFragment): Exit | undefined {
  const who = wait.resolution?.agentId ?? wait.pin.agentId;
  switch (wait.status) {
    case 'SATISFIED':
      return undefined;
    case 'TIMED_OUT':
      return new Exit(
        ExitCode.TIMED_OUT,
        `TIMED_OUT: no accepted change (${wait.accept.join(',')}) within ${wait.timeoutMs / 1000} s`,
        wait.status,
      );
    case 'NOT_RUNNING':
      return new Exit(
        ExitCode.NOT_RUNNING,
        `NOT_RUNNING: ${who}: ${wait.reason ?? 'not running'}`,
        wait.status,
      );
    case 'UNREACHABLE':
      return new Exit(ExitCode.NOT_RUNNING, `UNREACHABLE: ${who} is unreachable`, wait.status);
    case 'UNOBSERVABLE':
      return new Exit(
        ExitCode.REFUSED,
        `UNOBSERVABLE: ${wait.reason ?? 'the provider cannot pin waits'}`,
        wait.status,
      );
    default:
      return new Exit(ExitCode.ERROR, `the wait ended ${wait.status}`, wait.status);
  }
}

function waitText(wait: WaitFieldsFragment): string {
  const who = wait.resolution?.agentId ?? wait.pin.agentId;
  const took = wait.resolvedAt
    ? ` after ${((Date.parse(wait.resolvedAt) - Date.parse(wait.createdAt)) / 1000).toFixed(1)} s`
    : '';
  if (wait.status === 'SATISFIED')
    return `${bold('SATISFIED')}: ${who} is ${liveness(wait.resolution?.liveness)}${took} ${dim(`(wait ${wait.id}, seq ${wait.resolution?.seq})`)}`;
  return `${bold(wait.status)}${wait.reason ? ` (${wait.reason})` : ''}: ${wait.targets.map((t) => t.agentId).join(', ')}${took} ${dim(`(wait ${wait.id})`)}`;
}

function pinText(wait: WaitFieldsFragment): string {
  return wait.targets
    .map(
      (t) =>
        `${t.agentId}${t.pin.providerSessionRef ? ` @ ${t.pin.providerSessionRef}` : ''}${t.pin.occupantRef ? ` (${t.pin.occupantRef})` : ''}`,
    )
    .join(', ');
}

async function follow(ctx: Context, wait: WaitFieldsFragment): Promise<void> {
  const { followWait, progress, streamOptions } = await import('../streaming.ts');
  const target = `${pinText(wait)} until ${wait.accept.join(',')}`;
  const spinner = progress(ctx, `waiting for ${target}`);
  let result: Awaited<ReturnType<typeof followWait>>;
  try {
    result = await followWait(
      streamOptions(ctx, Date.parse(wait.deadline) + 60_000, (why) =>
        spinner.update(`reconnecting (${why}); waiting for ${target}`),
      ),
      wait.id,
    );
  } finally {
    spinner.stop();
  }
  if (!result) throw new Exit(ExitCode.ERROR, 'the wait stream ended without an outcome');
  if (result.__typename !== 'Wait') return ctx.finish(result, () => undefined, failureOf(result));
  await ctx.finish(result, waitText, waitExit(result));
}

export function waitCommand(program: Command): void {
  program
    .command('wait [agents...]')
    .description(
      'wait until an agent shows an accepted liveness in a change after now (pinned to its current occupant); with several agents the first to satisfy its own pin wins and is named',
    )
    .option('--until <liveness>', 'accepted liveness, comma-separated', 'done,idle')
    .option('--todo <id>', "the todo the wait is about (default: the agent's claimed one)")
    .option('--timeout <duration>', 'how long (required; at most 1h), e.g. 30s, 10m', duration)
    .option('--id <waitId>', 'follow an existing wait instead (after this command was interrupted)')
    .addHelpText(
      'after',
      examples(
        'switchboard wait reviewer --until done --timeout 10m',
        'switchboard wait alice bob --until working,done --timeout 5m --json',
        'switchboard wait --id w-123   # resume following',
      ),
    )
    .action(
      run<{ until: string; todo?: string; timeout?: number; id?: string }, [string[]]>(
        async (ctx, options, agents) => {
          if (options.id) {
            const { wait } = await ctx.client.request(WaitDocument, { id: options.id });
            if (wait.__typename !== 'Wait')
              return ctx.finish(wait, () => undefined, failureOf(wait));
            if (wait.status !== 'PENDING') return ctx.finish(wait, waitText, waitExit(wait));
            return follow(ctx, wait);
          }
          if (agents.length === 0) throw usage('name the agent(s) to wait for, or --id <waitId>');
          if (options.timeout === undefined)
            throw usage('--timeout is required (e.g. --timeout 10m)');
          const accept = parseUntil(options.until);
          const goalId = await ctx.goal();
          const { startWait } = await ctx.client.request(StartWaitDocument, {
            input: {
              goalId,
              ...(agents.length === 1 ? { agentId: agents[0] } : { agentIds: agents }),
              todoId: options.todo,
              accept,
              timeoutMs: options.timeout,
            },
          });
          if (startWait.__typename !== 'Wait')
            return ctx.finish(startWait, () => undefined, failureOf(startWait));
          if (startWait.status !== 'PENDING')
            return ctx.finish(startWait, waitText, waitExit(startWait));
          // a line on stderr (also with --json: stdout stays the packet) names the wait to resume
          if (!ctx.quiet && !process.stderr.isTTY)
            process.stderr.write(
              `${inert(`waiting for ${pinText(startWait)} until ${accept.join(',')} (wait ${startWait.id})`)}\n`,
            );
          await follow(ctx, startWait);
        },
      ),
    );
}
