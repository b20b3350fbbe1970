/** capabilities: the capabilities you declare in the goal, read by the CAPABILITY guard. */
import type { Command } from 'commander';
import { SetCapabilitiesDocument } from '../../client/index.ts';
import { examples, run } from '../context.ts';
import { usage } from '../exit-codes.ts';
import { failureOf } from '../outcomes.ts';

export function capabilitiesCommand(program: Command): void {
  program
    .command('capabilities')
    .description('declare your capabilities in the goal (read by the CAPABILITY guard)')
    .command('set [names...]')
    .description(
      "replace your declared capabilities with these (letters, digits, '.', '_', '-'; at most 32), or --none",
    )
    .option('--none', 'declare none')
    .option('--agent <id>', 'act for this agent (ADMIN/STEWARD)')
    .addHelpText(
      'after',
      examples(
        'switchboard capabilities set typescript postgres',
        'switchboard capabilities set --none',
      ),
    )
    .action(
      run<{ none?: boolean; agent?: string }, [string[]]>(async (ctx, o, names) => {
        if (Boolean(o.none) === names.length > 0)
          throw usage('name the capabilities, or pass --none');
        const { setCapabilities: r } = await ctx.client.request(SetCapabilitiesDocument, {
          input: { goalId: await ctx.goal(), capabilities: names, agentId: o.agent },
        });
        await ctx.finish(
          r,
          (r) =>
            r.__typename === 'AgentCapabilities'
              ? `${r.agentId}: ${r.capabilities.join(', ') || 'no capabilities'}`
              : undefined,
          failureOf(r),
        );
      }),
    );
}
