/** lease, vision: the rest of the goal's work graph. */
import type { Command } from 'commander';
import {
  AcquireLeaseDocument,
  type LeaseFieldsFragment,
  ReleaseLeaseDocument,
  RenewLeaseDocument,
  SetVisionDocument,
  VisionsDocument,
} from '../../client/index.ts';
import { duration, examples, run } from '../context.ts';
import { failureOf, scopeGapOf } from '../outcomes.ts';
import { ago, dim, table } from '../output.ts';

const leaseText = (l: LeaseFieldsFragment) =>
  `lease ${l.state} on ${l.todoId} by ${l.holder ?? '—'}, fence ${l.fence}${l.expiresAt ? `, expires ${ago(l.expiresAt)}` : ''}`;

export function workCommands(program: Command): void {
  const lease = program
    .command('lease')
    .description('occupancy leases with fence tokens: acquire, renew, release');
  lease
    .command('acquire <todo>')
    .description('take the lease (a new fence) unless an active one exists')
    .requiredOption('--ttl <duration>', 'how long, e.g. 10m', duration)
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText('after', examples('switchboard lease acquire t-1 --ttl 10m --json | jq -r .fence'))
    .action(
      run<{ ttl: number; agent?: string }, [string]>(async (ctx, o, todoId) => {
        const goalId = await ctx.goal();
        const { acquireLease: r } = await ctx.client.request(AcquireLeaseDocument, {
          input: { goalId, todoId, ttlMs: o.ttl, agentId: o.agent },
        });
        await ctx.finish(
          r,
          () => (r.__typename === 'Lease' ? leaseText(r) : undefined),
          failureOf(r),
        );
      }),
    );
  lease
    .command('renew <todo>')
    .description(
      'extend the lease if the fence is current and yours (an expired lease cannot be renewed)',
    )
    .requiredOption('--fence <fence>', 'the fence from acquire')
    .requiredOption('--ttl <duration>', 'how long from now', duration)
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText('after', examples('switchboard lease renew t-1 --fence 7 --ttl 10m'))
    .action(
      run<{ fence: string; ttl: number; agent?: string }, [string]>(async (ctx, o, todoId) => {
        const goalId = await ctx.goal();
        const { renewLease: r } = await ctx.client.request(RenewLeaseDocument, {
          input: { goalId, todoId, fence: o.fence, ttlMs: o.ttl, agentId: o.agent },
        });
        await ctx.finish(
          r,
          () => (r.__typename === 'Lease' ? leaseText(r) : undefined),
          failureOf(r),
        );
      }),
    );
  lease
    .command('release <todo>')
    .description('end the lease if the fence is current and yours')
    .requiredOption('--fence <fence>', 'the fence from acquire')
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText('after', examples('switchboard lease release t-1 --fence 7'))
    .action(
      run<{ fence: string; agent?: string }, [string]>(async (ctx, o, todoId) => {
        const goalId = await ctx.goal();
        const { releaseLease: r } = await ctx.client.request(ReleaseLeaseDocument, {
          input: { goalId, todoId, fence: o.fence, agentId: o.agent },
        });
        await ctx.finish(
          r,
          () => (r.__typename === 'Lease' ? leaseText(r) : undefined),
          failureOf(r),
        );
      }),
    );

  const vision = program.command('vision').description('per-agent vision: show, set');
  vision
    .command('show')
    .description("every agent's vision in the goal (or one with --agent)")
    .option('--agent <id>', 'only this agent')
    .addHelpText('after', examples('switchboard vision show --agent builder'))
    .action(
      run<{ agent?: string }>(async (ctx, o) => {
        const goalId = await ctx.goal();
        const { visions } = await ctx.client.request(VisionsDocument, { goalId });
        const rows = o.agent ? visions.rows.filter((v) => v.agentId === o.agent) : visions.rows;
        await ctx.finish(
          o.agent ? { ...visions, rows } : visions,
          async () =>
            rows.length === 0
              ? dim('no vision set')
              : table(
                  ['agent', 'role scope', 'vision', 'acceptance', 'replan trigger', 'updated'],
                  rows.map((v) => [
                    v.agentId,
                    v.roleScope,
                    v.visionSummary,
                    v.acceptanceSummary,
                    v.replanTriggerSummary,
                    ago(v.updatedAt),
                  ]),
                ),
          scopeGapOf(visions),
        );
      }),
    );
  vision
    .command('set')
    .description('replace your vision in the goal (one row per agent)')
    .requiredOption(
      '--role-scope <text>',
      'relative path prefixes of your lane, e.g. "src/cli test"',
    )
    .requiredOption('--vision <text>', 'vision summary')
    .requiredOption('--acceptance <text>', 'acceptance summary')
    .requiredOption('--replan-trigger <text>', 'what makes you replan')
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText(
      'after',
      examples(
        'switchboard vision set --role-scope src/cli --vision "ship the CLI" --acceptance "tests green" --replan-trigger "schema change"',
      ),
    )
    .action(
      run<{
        roleScope: string;
        vision: string;
        acceptance: string;
        replanTrigger: string;
        agent?: string;
      }>(async (ctx, o) => {
        const goalId = await ctx.goal();
        const { setVision: r } = await ctx.client.request(SetVisionDocument, {
          input: {
            goalId,
            roleScope: o.roleScope,
            visionSummary: o.vision,
            acceptanceSummary: o.acceptance,
            replanTriggerSummary: o.replanTrigger,
            agentId: o.agent,
          },
        });
        await ctx.finish(
          r,
          () => (r.__typename === 'Vision' ? `vision of ${r.agentId} set` : undefined),
          failureOf(r),
        );
      }),
    );
}
