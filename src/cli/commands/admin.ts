/** admin goal|agent|token|delegate: registry writes and credentials (ADMIN credentials). */
import { type Command, InvalidArgumentError } from 'commander';
import {
  AgentsDocument,
  CallerKind,
  CreateGoalDocument,
  type CredentialFieldsFragment,
  CredentialsDocument,
  DelegateGoalDocument,
  GoalsDocument,
  IssueCredentialDocument,
  RegisterAgentDocument,
  RetireAgentDocument,
  RevokeCredentialDocument,
  RotateCredentialDocument,
} from '../../client/index.ts';
import { enumArg, examples, run } from '../context.ts';
import { usage } from '../exit-codes.ts';
import { failureOf, scopeGapOf } from '../outcomes.ts';
import { ago, dim, table } from '../output.ts';

export function adminCommand(program: Command): void {
  const admin = program
    .command('admin')
    .description('registry and credentials (ADMIN): goal, agent, token, delegate');

  const goal = admin.command('goal').description('goals: create, list');
  goal
    .command('create <goalId>')
    .description('create a goal')
    .requiredOption('--title <text>', 'title')
    .addHelpText('after', examples('switchboard admin goal create demo --title "Demo goal"'))
    .action(
      run<{ title: string }, [string]>(async (ctx, o, goalId) => {
        const { createGoal: r } = await ctx.client.request(CreateGoalDocument, {
          input: { goalId, title: o.title },
        });
        await ctx.finish(
          r,
          (r) => (r.__typename === 'Goal' ? `created goal ${r.id}: ${r.title}` : undefined),
          failureOf(r),
        );
      }),
    );
  goal
    .command('list')
    .description('the goals in your scope')
    .addHelpText('after', examples('switchboard admin goal list'))
    .action(
      run(async (ctx) => {
        const { goals } = await ctx.client.request(GoalsDocument);
        await ctx.print(goals, (goals) =>
          table(
            ['goal', 'title', 'created'],
            goals.map((g) => [g.id, g.title, ago(g.createdAt)]),
          ),
        );
      }),
    );

  const agent = admin.command('agent').description('agents: register, list, retire');
  agent
    .command('register <agentId>')
    .description('register an agent identity in the goal (--goal)')
    .option('--model <name>', 'agent model', 'unspecified')
    .option('--surface <name>', 'host surface, e.g. claude-code, codex, cli', 'cli')
    .addHelpText(
      'after',
      examples(
        'switchboard admin agent register builder --goal demo --model claude --surface claude-code',
      ),
    )
    .action(
      run<{ model: string; surface: string }, [string]>(async (ctx, o, agentId) => {
        const goalId = await ctx.goal();
        const { registerAgent: r } = await ctx.client.request(RegisterAgentDocument, {
          input: { goalId, agentId, agentModel: o.model, hostSurface: o.surface },
        });
        await ctx.finish(
          r,
          (r) => (r.__typename === 'Agent' ? `registered ${r.agentId} in ${r.goalId}` : undefined),
          failureOf(r),
        );
      }),
    );
  agent
    .command('list')
    .description('the agents registered to the goal')
    .option('--retired', 'include retired agents')
    .addHelpText('after', examples('switchboard admin agent list --goal demo --retired'))
    .action(
      run<{ retired?: boolean }>(async (ctx, o) => {
        const goalId = await ctx.goal();
        const { agents } = await ctx.client.request(AgentsDocument, {
          goalId,
          includeRetired: Boolean(o.retired),
        });
        await ctx.finish(
          agents,
          (agents) =>
            table(
              ['agent', 'model', 'surface', 'registered', 'retired'],
              agents.rows.map((a) => [
                a.agentId,
                a.agentModel,
                a.hostSurface,
                ago(a.registeredAt),
                a.retiredAt ? ago(a.retiredAt) : null,
              ]),
            ),
          scopeGapOf(agents),
        );
      }),
    );
  agent
    .command('retire <agentId>')
    .description('retire an agent: kept in the registry, no longer a member; its sockets close')
    .addHelpText('after', examples('switchboard admin agent retire builder --goal demo'))
    .action(
      run<object, [string]>(async (ctx, _o, agentId) => {
        const goalId = await ctx.goal();
        const { retireAgent: r } = await ctx.client.request(RetireAgentDocument, {
          goalId,
          agentId,
        });
        await ctx.finish(
          r,
          (r) => (r.__typename === 'Agent' ? `retired ${r.agentId}` : undefined),
          failureOf(r),
        );
      }),
    );

  const token = admin.command('token').description('credentials: issue, list, rotate, revoke');
  token
    .command('issue')
    .description(
      'issue a credential; prints the token (shown once) alone on stdout, details on stderr',
    )
    .requiredOption(
      '--kind <kind>',
      'peer, steward, provider or admin',
      enumArg(Object.values(CallerKind)),
    )
    .option('--agent <id>', 'PEER: the agent (of --goal)')
    .option('--goals <ids>', 'STEWARD/PROVIDER: comma-separated goal ids')
    .option('--provider <id>', 'PROVIDER: the provider id')
    .option('--label <text>', 'a label')
    .option(
      '--expires <when>',
      'refused from then on: a duration from now (90m, 12h, 30d, 8w) or an ISO time',
      expiry,
    )
    .addHelpText(
      'after',
      examples(
        'switchboard admin token issue --kind peer --goal demo --agent builder > builder.token',
        'switchboard admin token issue --kind steward --goals demo,other --expires 30d --json',
      ),
    )
    .action(
      run<{
        kind: string;
        agent?: string;
        goals?: string;
        provider?: string;
        label?: string;
        expires?: string;
      }>(async (ctx, o) => {
        const kind = o.kind as CallerKind;
        if (kind === 'PEER' && !o.agent)
          throw usage('a PEER credential needs --agent (and --goal)');
        const goalId = kind === 'PEER' ? await ctx.goal() : undefined;
        const { issueCredential } = await ctx.client.request(IssueCredentialDocument, {
          input: {
            kind,
            goalId,
            agentId: o.agent,
            goalIds: o.goals?.split(',').map((g) => g.trim()),
            providerId: o.provider,
            label: o.label,
            expiresAt: o.expires,
          },
        });
        if (ctx.json) return ctx.print(issueCredential, () => undefined);
        process.stdout.write(`${issueCredential.token}\n`);
        if (!ctx.quiet)
          process.stderr.write(
            `${dim(`issued ${kind} credential ${issueCredential.credential.id}${o.agent ? ` for ${o.agent}` : ''}: the token above is shown once`)}\n`,
          );
      }),
    );
  token
    .command('list')
    .description(
      "credentials, newest first, with their status (revoked, expired and retired agents' ones included; never a token); --goal narrows to those bound to a goal",
    )
    .option(
      '--kind <kind>',
      'only peer, steward, provider or admin',
      enumArg(Object.values(CallerKind)),
    )
    .addHelpText(
      'after',
      examples(
        'switchboard admin token list --goal demo',
        'switchboard admin token list --kind admin',
      ),
    )
    .action(
      run<{ kind?: string }>(async (ctx, o) => {
        const { credentials } = await ctx.client.request(CredentialsDocument, {
          goalId: ctx.connection.goal,
          kind: o.kind as CallerKind | undefined,
        });
        await ctx.print(credentials, (credentials) =>
          table(
            ['id', 'kind', 'label', 'binding', 'status', 'created', 'last used', 'expires'],
            credentials.map((c) => [
              c.id,
              c.kind,
              c.label,
              binding(c),
              c.status === 'REVOKED' ? `REVOKED ${ago(c.revokedAt)}` : c.status,
              ago(c.createdAt),
              c.lastUsedAt ? ago(c.lastUsedAt) : dim('never'),
              c.expiresAt ? ago(c.expiresAt) : dim('never'),
            ]),
          ),
        );
      }),
    );
  token
    .command('rotate <credentialId>')
    .description(
      'replace a credential with a new token of the same binding and label; the old one is revoked at once. Prints the new token (shown once) alone on stdout',
    )
    .addHelpText('after', examples('switchboard admin token rotate cred_0b9e… > builder.token'))
    .action(
      run<object, [string]>(async (ctx, _o, id) => {
        const { rotateCredential } = await ctx.client.request(RotateCredentialDocument, { id });
        if (ctx.json) return ctx.print(rotateCredential, () => undefined);
        process.stdout.write(`${rotateCredential.token}\n`);
        if (!ctx.quiet)
          process.stderr.write(
            `${dim(`rotated ${id}: revoked; its replacement ${rotateCredential.credential.id} has the token above, shown once`)}\n`,
          );
      }),
    );
  token
    .command('revoke <credentialId>')
    .description('revoke a credential: refused from the next request on; its sockets close')
    .addHelpText('after', examples('switchboard admin token revoke c-123'))
    .action(
      run<object, [string]>(async (ctx, _o, id) => {
        const { revokeCredential } = await ctx.client.request(RevokeCredentialDocument, { id });
        await ctx.print(revokeCredential, (r) => `revoked ${r.id} (${r.kind})`);
      }),
    );

  admin
    .command('delegate <agentId>')
    .description("widen an agent's scope to another goal")
    .requiredOption('--from <goal>', "the agent's own goal")
    .requiredOption('--to <goal>', 'the goal it may now act in')
    .addHelpText('after', examples('switchboard admin delegate builder --from demo --to other'))
    .action(
      run<{ from: string; to: string }, [string]>(async (ctx, o, agentId) => {
        const { delegateGoal: r } = await ctx.client.request(DelegateGoalDocument, {
          input: { agentId, agentGoalId: o.from, goalId: o.to },
        });
        await ctx.finish(
          r,
          (r) =>
            r.__typename === 'Delegation'
              ? `${r.agentId} of ${r.agentGoalId} may act in ${r.goalId}`
              : undefined,
          failureOf(r),
        );
      }),
    );
}

/** What a credential binds, in a few words. */
function binding(c: CredentialFieldsFragment): string {
  switch (c.kind) {
    case 'PEER':
      return `${c.goalId}/${c.agentId}`;
    case 'STEWARD':
      return `goals ${c.goalIds.join(',')}`;
    case 'PROVIDER':
      return `${c.providerId} for ${c.goalIds.join(',')}`;
    default:
      return '';
  }
}

const DURATION_UNITS: Record<string, number> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** `--expires`: a duration from now (90m, 12h, 30d, 8w) or an ISO time, as an ISO time. */
function expiry(value: string): string {
  const duration = /^(\d+)([mhdw])$/.exec(value);
  const at = duration
    ? Date.now() + Number(duration[1]) * (DURATION_UNITS[duration[2] as string] as number)
    : /^\d{4}-\d\d-\d\d/.test(value)
      ? Date.parse(value)
      : Number.NaN;
  if (Number.isNaN(at))
    throw new InvalidArgumentError('expected a duration (90m, 12h, 30d, 8w) or an ISO time');
  return new Date(at).toISOString();
}
