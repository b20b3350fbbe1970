/** lease: occupancy leases on a todo, with fence tokens: acquire, renew, release. */
import type { Command } from 'commander';
import {
  AcquireLeaseDocument,
  type LeaseFieldsFragment,
  ReleaseLeaseDocument,
  RenewLeaseDocument,
} from '../../client/index.ts';
import { duration, examples, run } from '../context.ts';
import { failureOf } from '../outcomes.ts';
import { ago } from '../output.ts';

const leaseText = (l: LeaseFieldsFragment) =>
  `lease ${l.state} on ${l.todoId} by ${l.holder ?? '—'}, fence ${l.fence}${l.expiresAt ? `, expires ${ago(l.expiresAt)}` : ''}`;

export function leaseCommand(program: Command): void {
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
          (r) => (r.__typename === 'Lease' ? leaseText(r) : undefined),
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
          (r) => (r.__typename === 'Lease' ? leaseText(r) : undefined),
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
          (r) => (r.__typename === 'Lease' ? leaseText(r) : undefined),
          failureOf(r),
        );
      }),
    );
}
