/** whoami, login, logout: who the gateway says you are, and stored connection profiles. */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { ClientError } from '../../client/errors.ts';
import { createClient, WhoamiDocument } from '../../client/index.ts';
import { configFile, readProfiles, removeProfile, saveProfile } from '../../client/profiles.ts';
import { type Context, examples, explain, resolveConnection, run } from '../context.ts';
import { Exit, ExitCode, usage } from '../exit-codes.ts';
import { nodeTransport } from '../http.ts';
import { table } from '../output.ts';

function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

async function listProfiles(ctx: Context) {
  const file = readProfiles();
  const packet = {
    current: file.current ?? null,
    profiles: Object.fromEntries(
      Object.entries(file.profiles).map(([name, p]) => [
        name,
        { url: p.url ?? null, goal: p.goal ?? null },
      ]),
    ),
  };
  await ctx.print(packet, ({ current, profiles }) =>
    table(
      ['profile', 'url', 'goal'],
      Object.entries(profiles).map(([name, p]) => [
        name === current ? `${name} *` : name,
        p.url,
        p.goal,
      ]),
    ),
  );
}

export function sessionCommands(program: Command): void {
  program
    .command('whoami')
    .description('the caller as resolved from its credential, with the goals in its scope')
    .addHelpText('after', examples('switchboard whoami', 'switchboard whoami --json'))
    .action(
      run(async (ctx) => {
        const me = await ctx.whoami();
        await ctx.print(me, (me) =>
          table(
            ['kind', 'agent', 'goal', 'goals in scope'],
            [[me.kind, me.agentId, me.goalId, me.goalIds.join(', ')]],
          ),
        );
      }),
    );

  program
    .command('login [name]')
    .description(
      'check a token against the gateway and store url, token and goal as a named profile (file mode 0600)',
    )
    .option('--token-stdin', 'read the token from standard input')
    .option('--token-file <file>', 'read the token from a file')
    .option('--list', 'list the stored profiles (tokens never shown)')
    .addHelpText(
      'after',
      examples(
        'switchboard login builder --goal demo --token-file builder.token',
        'echo "$TOKEN" | switchboard login --token-stdin --url http://127.0.0.1:4000/graphql',
        'switchboard login --list',
      ),
    )
    .action(
      run<{ tokenStdin?: boolean; tokenFile?: string; list?: boolean }, [string | undefined]>(
        async (ctx, options, name = 'default') => {
          if (options.list) return listProfiles(ctx);
          let token = options.token ?? (process.env.SWITCHBOARD_TOKEN || undefined);
          if (options.tokenFile) token = readFileSync(options.tokenFile, 'utf8').trim();
          if (options.tokenStdin) token = readStdin().trim();
          if (!token)
            throw usage('no token: pass --token-stdin or --token-file F, or set SWITCHBOARD_TOKEN');
          const existing = readProfiles().profiles[name] ?? {};
          const base = resolveConnection({ url: options.url });
          const url = options.url ?? process.env.SWITCHBOARD_URL ?? existing.url ?? base.url;
          let me: Awaited<ReturnType<Context['whoami']>>;
          try {
            me = (
              await createClient({ url, token, transport: nodeTransport }).request(WhoamiDocument)
            ).me;
          } catch (error) {
            if (error instanceof ClientError)
              throw explain(error, { ...base, url, token, urlSource: 'flag' });
            throw error;
          }
          const goal =
            options.goal ??
            (process.env.SWITCHBOARD_GOAL || undefined) ??
            existing.goal ??
            me.goalId ??
            undefined;
          const file = saveProfile(name, { url, token, goal }, { makeCurrent: true });
          await ctx.print(
            { profile: name, file, url, goal: goal ?? null, me },
            ({ me, goal, file }) =>
              `logged in as ${me.kind}${me.agentId ? ` ${me.agentId}` : ''}${goal ? ` (goal ${goal})` : ''}: profile "${name}" (current) in ${file}`,
          );
        },
      ),
    );

  program
    .command('logout [name]')
    .description('forget a stored profile')
    .addHelpText('after', examples('switchboard logout builder'))
    .action(
      run<object, [string | undefined]>(async (ctx, _options, name = 'default') => {
        if (!removeProfile(name))
          throw new Exit(ExitCode.NOT_FOUND, `no profile "${name}" in ${configFile()}`);
        await ctx.print({ removed: name }, () => `removed profile "${name}"`);
      }),
    );
}
