/** directory, attention, observe, discover, peers, peer: who is there and what is known. */
import type { Command } from 'commander';
import {
  AddPeerDocument,
  AttentionDocument,
  type AttentionRowFieldsFragment,
  DirectoryDocument,
  DiscoverDocument,
  ObservationSource,
  ObserveDocument,
  RemovePeerDocument,
  RosterDocument,
  type RosterFieldsFragment,
  SetPrimaryPeerDocument,
} from '../../client/index.ts';
import { duration, enumArg, examples, int, run } from '../context.ts';
import { usage } from '../exit-codes.ts';
import { failureOf, scopeGapOf } from '../outcomes.ts';
import { ago, dim, liveness, plural, table, warn } from '../output.ts';

const LIMITATION_TEXT: Record<string, string> = {
  PRESENCE_PROVIDER_UNAVAILABLE: 'no presence provider reports on this goal: liveness is unknown',
  PRESENCE_IS_ADVISORY:
    'presence is advisory: it says whether an agent runs, not whether its work is done',
  PRESENCE_STALE_AFTER_PROVIDER_RESTART: 'some presence predates a provider restart and is stale',
  LEASE_STATE_NOT_PROJECTED: 'lease state is not projected',
  CALLER_IDENTITY_NOT_SUPPLIED: 'the caller is not an agent of this goal',
  ROWS_TRUNCATED_AT_CAP: 'rows truncated at the limit',
  ACTIVITY_NOT_OBSERVABLE: 'activity cannot be observed (no provider pins the target)',
};
export const limitationText = (value: string) => LIMITATION_TEXT[value] ?? value;

export async function attentionTable(rows: readonly AttentionRowFieldsFragment[]): Promise<string> {
  if (rows.length === 0) return dim('nothing needs attention');
  return table(
    ['reason', 'agent', 'todo', 'gate', 'delivery', 'liveness', 'since'],
    rows.map((r) => [
      r.reason,
      r.agentId,
      r.todoId,
      r.gateId,
      r.deliveryId,
      liveness(r.liveness),
      ago(r.since),
    ]),
  );
}

async function rosterText(roster: RosterFieldsFragment): Promise<string> {
  if (roster.peers.length === 0)
    return dim(`no peers connected in ${roster.goalId}: \`switchboard peer add <agent>\``);
  return table(
    ['peer', 'status', 'primary', 'source', 'attached', 'last active'],
    roster.peers.map((p) => [
      p.agentId,
      p.status === 'CONNECTED' ? p.status : warn(p.status),
      p.isPrimary ? 'yes' : '',
      p.source,
      ago(p.attachedAt),
      ago(p.lastActiveAt),
    ]),
  );
}

export function directoryCommands(program: Command): void {
  program
    .command('directory')
    .description('every registered agent of the goal: model, surface, claimed work and presence')
    .option('--limit <n>', 'most rows (1-1000)', int, 200)
    .addHelpText(
      'after',
      examples(
        'switchboard directory --goal demo',
        'switchboard directory --json | jq -r ".rows[].agentId"',
      ),
    )
    .action(
      run<{ limit: number }>(async (ctx, options) => {
        const goalId = await ctx.goal();
        const { directory } = await ctx.client.request(DirectoryDocument, {
          goalId,
          limit: options.limit,
        });
        await ctx.finish(
          directory,
          async (directory) => {
            const lines = [
              await table(
                [
                  'agent',
                  'model',
                  'surface',
                  'todo',
                  'lease',
                  'liveness',
                  'observed',
                  'host',
                  'provider',
                ],
                directory.rows.map((row) => [
                  row.agentId,
                  row.agentModel,
                  row.hostSurface,
                  row.work.todoId
                    ? `${row.work.todoId}${row.work.claimed ? '' : dim(' (unclaimed)')}`
                    : null,
                  row.work.lease === 'NONE' ? null : row.work.lease,
                  row.presence
                    ? `${liveness(row.presence.liveness)}${row.presence.stale ? warn(' stale') : ''}${row.presence.coverageGap ? warn(` ${row.presence.coverageGap}`) : ''}${row.presence.endedAt ? dim(' ended') : ''}`
                    : dim('not seen'),
                  row.presence ? ago(row.presence.observedAt) : null,
                  row.presence?.host,
                  row.presence?.provider,
                ]),
              ),
              dim(
                `${plural(directory.registeredAgentCount, 'registered agent')} in ${directory.goalId}, read as ${directory.audience ?? 'unknown'}`,
              ),
            ];
            if (directory.omittedRowCount > 0)
              lines.push(
                warn(`truncated: ${directory.omittedRowCount} more rows omitted (raise --limit)`),
              );
            for (const l of directory.limitations)
              if (l !== 'ROWS_TRUNCATED_AT_CAP') lines.push(dim(`note: ${limitationText(l)}`));
            if (directory.rollup.length > 0)
              lines.push('', 'attention:', await attentionTable(directory.rollup));
            return lines.join('\n');
          },
          scopeGapOf(directory),
        );
      }),
    );

  program
    .command('attention')
    .description(
      'what needs a decision in the goal, most urgent first (typed reasons only; assigns nothing)',
    )
    .option('--stale-claim <duration>', 'STALE_CLAIM threshold, e.g. 30m', duration)
    .addHelpText('after', examples('switchboard attention', 'switchboard attention --json'))
    .action(
      run<{ staleClaim?: number }>(async (ctx, options) => {
        const goalId = await ctx.goal();
        const { attention } = await ctx.client.request(AttentionDocument, {
          goalId,
          staleClaimMs: options.staleClaim,
        });
        await ctx.finish(
          attention,
          (attention) => attentionTable(attention.rows),
          scopeGapOf(attention),
        );
      }),
    );

  program
    .command('observe <agent>')
    .description("a bounded, advisory excerpt of an agent's terminal (never evidence)")
    .option(
      '--source <source>',
      `which capture (${Object.values(ObservationSource).join(', ').toLowerCase()})`,
      enumArg(Object.values(ObservationSource)),
      'RECENT',
    )
    .option('--lines <n>', 'most lines wanted', int, 40)
    .addHelpText('after', examples('switchboard observe reviewer --source recent --lines 20'))
    .action(
      run<{ source: string; lines: number }, [string]>(async (ctx, options, agent) => {
        const goalId = await ctx.goal();
        const { observe } = await ctx.client.request(ObserveDocument, {
          goalId,
          agentId: agent,
          source: options.source as ObservationSource,
          lines: options.lines,
        });
        await ctx.finish(
          observe,
          (observe) => {
            if (observe.__typename !== 'Observation') return undefined;
            return [
              dim(
                `${observe.source} of ${observe.agentId} via ${observe.provider}, captured ${ago(observe.capturedAt)}, at most ${observe.lineBound} lines, advisory${observe.redactionCount ? `; ${plural(observe.redactionCount, 'redaction')}` : ''}${observe.limits.length ? `; cannot show: ${observe.limits.join(', ')}` : ''}`,
              ),
              ...observe.lines,
            ].join('\n');
          },
          failureOf(observe),
        );
      }),
    );

  program
    .command('discover')
    .description(
      'registered agents with sources, freshness and whether you connected them (connects no one)',
    )
    .addHelpText(
      'after',
      examples('switchboard discover', 'switchboard peer add reviewer   # then connect one'),
    )
    .action(
      run(async (ctx) => {
        const goalId = await ctx.goal();
        const { discover } = await ctx.client.request(DiscoverDocument, { goalId });
        await ctx.finish(
          discover,
          async (discover) => {
            if (discover.__typename !== 'Discovery') return undefined;
            const lines = [
              await table(
                [
                  'agent',
                  'connected',
                  'liveness',
                  'freshness',
                  'sources',
                  'last seen',
                  'last message',
                ],
                discover.agents.map((a) => [
                  `${a.agentId}${a.isSelf ? dim(' (you)') : ''}${a.isPrimary ? ' (primary)' : ''}`,
                  a.connected ? 'yes' : dim('no'),
                  liveness(a.liveness),
                  a.freshness === 'FRESH'
                    ? a.freshness
                    : warn(`${a.freshness}${a.staleReason ? ` ${a.staleReason}` : ''}`),
                  a.sources.join(','),
                  ago(a.lastSeenAt),
                  ago(a.lastMessageAt),
                ]),
              ),
            ];
            for (const l of discover.limitations) lines.push(dim(`note: ${limitationText(l)}`));
            return lines.join('\n');
          },
          failureOf(discover),
        );
      }),
    );

  program
    .command('peers')
    .description('your roster: connected peers and the primary (the target of `send` without --to)')
    .addHelpText('after', examples('switchboard peers'))
    .action(
      run(async (ctx) => {
        const goalId = await ctx.goal();
        const { roster } = await ctx.client.request(RosterDocument, { goalId });
        await ctx.finish(
          roster,
          (roster) => (roster.__typename === 'Roster' ? rosterText(roster) : undefined),
          failureOf(roster),
        );
      }),
    );

  program
    .command('peer <action> [agent]')
    .description('add (connect), remove (disconnect) or make primary a peer; grants it nothing')
    .option('--clear', 'with primary: clear the primary peer')
    .addHelpText(
      'after',
      examples(
        'switchboard peer add reviewer',
        'switchboard peer primary reviewer   # `send` without --to goes to reviewer',
        'switchboard peer primary --clear',
        'switchboard peer remove reviewer',
      ),
    )
    .action(
      run<{ clear?: boolean }, [string, string | undefined]>(
        async (ctx, options, action, agent) => {
          if (!['add', 'remove', 'primary'].includes(action))
            throw usage(`peer ${action}: the action is add, remove or primary`);
          if (!agent && !(action === 'primary' && options.clear))
            throw usage(`peer ${action} needs an agent id`);
          const goalId = await ctx.goal();
          const agentId = agent as string;
          const result =
            action === 'add'
              ? (await ctx.client.request(AddPeerDocument, { goalId, agentId })).addPeer
              : action === 'remove'
                ? (await ctx.client.request(RemovePeerDocument, { goalId, agentId })).removePeer
                : (
                    await ctx.client.request(SetPrimaryPeerDocument, {
                      goalId,
                      agentId: options.clear ? null : agentId,
                    })
                  ).setPrimaryPeer;
          await ctx.finish(
            result,
            (result) => (result.__typename === 'Roster' ? rosterText(result) : undefined),
            failureOf(result),
          );
        },
      ),
    );
}
