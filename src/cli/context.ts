/**
 * What every verb needs: the connection (flags, then SWITCHBOARD_* variables, then the
 * profile), the typed client, the caller's goal and agent, and printing in the two modes.
 */

import { type Command, InvalidArgumentError } from 'commander';
import {
  type ClientError,
  ClientErrorKind,
  createClient,
  DEFAULT_URL,
  type SwitchboardClient,
  WhoamiDocument,
  type WhoamiQuery,
} from '../client/index.ts';
import { type Profile, readProfiles } from '../client/profiles.ts';
import { Exit, ExitCode, usage } from './exit-codes.ts';
import { nodeTransport } from './http.ts';
import { inertAll, json, parseDuration } from './output.ts';

/**
 * Renders the human form of a result (may load a table library first) from `shown`: the
 * packet with every string made inert (output.ts), so text other callers wrote never drives
 * the terminal. A renderer reads its text from `shown`, never from the packet itself.
 */
export type Human<T> = (shown: T) => string | undefined | Promise<string | undefined>;

export interface GlobalArgs {
  url?: string;
  token?: string;
  goal?: string;
  profile?: string;
  json?: boolean;
  quiet?: boolean;
  debug?: boolean;
}

export interface Connection {
  url: string;
  token: string | undefined;
  goal: string | undefined;
  profileName: string | undefined;
  /** Where the url came from, for error messages. */
  urlSource: 'flag' | 'env' | 'profile' | 'default';
}

export function resolveConnection(
  args: GlobalArgs,
  env: NodeJS.ProcessEnv = process.env,
): Connection {
  const file = readProfiles(env);
  const profileName = args.profile ?? env.SWITCHBOARD_PROFILE ?? file.current;
  let profile: Profile = {};
  if (profileName !== undefined) {
    const found = file.profiles[profileName];
    if (found) profile = found;
    else if (args.profile ?? env.SWITCHBOARD_PROFILE)
      throw usage(
        `no profile "${profileName}": create it with \`switchboard login ${profileName}\``,
      );
  }
  const url = args.url ?? env.SWITCHBOARD_URL ?? profile.url;
  return {
    url: url ?? DEFAULT_URL,
    urlSource: args.url
      ? 'flag'
      : env.SWITCHBOARD_URL
        ? 'env'
        : profile.url
          ? 'profile'
          : 'default',
    token: args.token ?? (env.SWITCHBOARD_TOKEN || undefined) ?? profile.token,
    goal: args.goal ?? (env.SWITCHBOARD_GOAL || undefined) ?? profile.goal,
    profileName,
  };
}

export class Context {
  readonly connection: Connection;
  readonly client: SwitchboardClient;
  readonly json: boolean;
  readonly quiet: boolean;
  readonly debug: boolean;
  private me: Promise<WhoamiQuery['me']> | undefined;

  constructor(args: GlobalArgs) {
    this.connection = resolveConnection(args);
    this.client = createClient({
      url: this.connection.url,
      token: this.connection.token,
      transport: nodeTransport,
    });
    this.json = Boolean(args.json);
    this.quiet = Boolean(args.quiet);
    this.debug = Boolean(args.debug);
  }

  /** The caller as the gateway resolves its credential (asked at most once). */
  whoami(): Promise<WhoamiQuery['me']> {
    this.me ??= this.client.request(WhoamiDocument).then((data) => data.me);
    return this.me;
  }

  /** --goal, SWITCHBOARD_GOAL, the profile's goal, else the caller's own goal. */
  async goal(): Promise<string> {
    if (this.connection.goal) return this.connection.goal;
    const me = await this.whoami();
    if (me.goalId) return me.goalId;
    if (me.goalIds.length === 1 && me.goalIds[0]) return me.goalIds[0];
    throw usage('no goal: pass --goal <id> or set SWITCHBOARD_GOAL');
  }

  /** The agent named, else the caller's own agent (a PEER). */
  async agent(named?: string): Promise<string> {
    if (named) return named;
    const me = await this.whoami();
    if (me.agentId) return me.agentId;
    throw usage(`a ${me.kind} credential is not an agent: name one with --agent <id>`);
  }

  /**
   * --json: the packet as the API answered it (output.ts `json`); otherwise `human` of its
   * inert copy (skipped with --quiet).
   */
  async print<T>(packet: T, human: Human<T>): Promise<void> {
    if (this.json) {
      process.stdout.write(`${json(packet, 2)}\n`);
      return;
    }
    if (this.quiet) return;
    const text = await human(inertAll(packet));
    if (text) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /**
   * Prints a typed result: on success as `print` does; for a typed failure the packet still
   * goes to stdout with --json, and the failure ends the command with its exit code.
   */
  async finish<T>(packet: T, human: Human<T>, failure?: Exit): Promise<void> {
    if (failure) {
      failure.result = packet;
      throw failure;
    }
    await this.print(packet, human);
  }

  /** Removes the token from text that may reach a terminal or a log. */
  redact(text: string): string {
    const token = this.connection.token;
    return token ? text.split(token).join('[token]') : text;
  }
}

/** One actionable line for a client error, and its exit code. */
export function explain(error: ClientError, connection: Connection): Exit {
  switch (error.kind) {
    case ClientErrorKind.UNREACHABLE: {
      const hint =
        connection.urlSource === 'default'
          ? 'is the gateway running (npm start)? set SWITCHBOARD_URL or --url'
          : `is the gateway running? (url from ${connection.urlSource === 'env' ? 'SWITCHBOARD_URL' : connection.urlSource === 'flag' ? '--url' : `profile ${connection.profileName}`})`;
      return new Exit(
        ExitCode.SERVER_UNREACHABLE,
        `cannot reach ${connection.url}: ${hint}`,
        error.kind,
      );
    }
    case ClientErrorKind.UNAUTHENTICATED:
      return new Exit(
        ExitCode.UNAUTHENTICATED,
        connection.token
          ? 'the gateway refused the token (bad or revoked): run `switchboard login` or set SWITCHBOARD_TOKEN'
          : 'no token: run `switchboard login` or set SWITCHBOARD_TOKEN',
        error.kind,
      );
    case ClientErrorKind.FORBIDDEN:
      return new Exit(
        ExitCode.SCOPE_GAP,
        `forbidden for this credential: ${error.message}`,
        error.kind,
      );
    case ClientErrorKind.BAD_USER_INPUT:
      return new Exit(ExitCode.USAGE, `refused input: ${error.message}`, error.kind);
    default:
      return new Exit(
        ExitCode.ERROR,
        `the gateway failed: ${error.message} (rerun with --debug)`,
        error.kind,
      );
  }
}

/** The Context of the running verb, so an error can be explained against its connection. */
export const current: { context?: Context } = {};

/**
 * A commander action: builds the Context from the global flags, then runs the verb with its
 * options (local and global) and its positional arguments.
 */
export function run<O extends object = Record<string, unknown>, P extends unknown[] = string[]>(
  verb: (ctx: Context, options: O & GlobalArgs, ...positionals: P) => Promise<void>,
) {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const options = command.optsWithGlobals() as O & GlobalArgs;
    const ctx = new Context(options);
    current.context = ctx;
    await verb(ctx, options, ...(args.slice(0, -2) as P));
  };
}

/** The "Examples:" block of a verb's --help. */
export const examples = (...lines: string[]) =>
  `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}`;

/** commander argument parser for a positive integer. */
export function int(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number');
  return n;
}

/** commander argument parser for a duration with its unit ("30s", "5m", "1500ms", "1h"). */
export function duration(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined)
    throw new InvalidArgumentError(
      'expected a duration with its unit, such as 30s, 5m, 1500ms or 1h (a bare number has none)',
    );
  return ms;
}

/** commander collector for a repeatable option. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** commander argument parser for an enum given in any case ("validation" → "VALIDATION"). */
export function enumArg(values: readonly string[]) {
  return (value: string): string => {
    const upper = value.toUpperCase().replaceAll('-', '_');
    if (!values.includes(upper))
      throw new InvalidArgumentError(
        `expected one of ${values.map((v) => v.toLowerCase()).join(', ')}`,
      );
    return upper;
  };
}
