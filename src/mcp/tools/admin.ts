/** The admin toolset: discovering agents, managing your roster, observing an agent's screen. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  AddPeerDocument,
  CloseGoalDocument,
  DiscoverDocument,
  ObservationSource,
  ObserveDocument,
  RemovePeerDocument,
  type RosterFieldsFragment,
  SetPrimaryPeerDocument,
} from '../../client/index.ts';
import type { McpContext } from '../context.ts';
import { answer, registerTool } from '../tool.ts';

const ROSTER_TYPES = ['Roster', 'UnknownAgent', 'ScopeGap'] as const;

function rosterAnswer(
  r: (RosterFieldsFragment & { __typename: 'Roster' }) | { __typename: string },
) {
  if (r.__typename !== 'Roster') return answer(r.__typename, r.__typename, r);
  const roster = r as RosterFieldsFragment;
  return answer(
    'Roster',
    `peers: ${roster.peers.map((p) => `${p.agentId}${p.isPrimary ? ' (primary)' : ''}`).join(', ') || 'none'}`,
    r,
  );
}

export function adminTools(server: McpServer, ctx: McpContext): void {
  registerTool(server, ctx, 'discover', {
    description: 'Agents of the goal you could add as peers, with how fresh each is.',
    input: {},
    types: ['Discovery', 'ScopeGap'],
    readOnly: true,
    async run() {
      const { discover } = await ctx.client.request(DiscoverDocument, { goalId: await ctx.goal() });
      if (discover.__typename !== 'Discovery')
        return answer(discover.__typename, discover.__typename, discover);
      return answer(
        'Discovery',
        discover.agents
          .map((a) => `${a.agentId}${a.isSelf ? ' (you)' : ''}: ${a.freshness}`)
          .join('\n'),
        discover,
      );
    },
  });

  const peer = { agent: z.string() };
  registerTool(server, ctx, 'add_peer', {
    description: 'Add an agent to your roster.',
    input: peer,
    types: ROSTER_TYPES,
    async run({ agent }) {
      const { addPeer } = await ctx.client.request(AddPeerDocument, {
        goalId: await ctx.goal(),
        agentId: agent,
      });
      return rosterAnswer(addPeer);
    },
  });
  registerTool(server, ctx, 'remove_peer', {
    description: 'Remove an agent from your roster.',
    input: peer,
    types: ROSTER_TYPES,
    async run({ agent }) {
      const { removePeer } = await ctx.client.request(RemovePeerDocument, {
        goalId: await ctx.goal(),
        agentId: agent,
      });
      return rosterAnswer(removePeer);
    },
  });
  registerTool(server, ctx, 'set_primary_peer', {
    description: "Make a roster peer your primary (send's default `to`); omit `agent` to clear.",
    input: { agent: z.string().optional() },
    types: ROSTER_TYPES,
    async run({ agent }) {
      const { setPrimaryPeer } = await ctx.client.request(SetPrimaryPeerDocument, {
        goalId: await ctx.goal(),
        agentId: agent,
      });
      return rosterAnswer(setPrimaryPeer);
    },
  });

  registerTool(server, ctx, 'observe', {
    description:
      "Recent screen lines of an agent's pane. Advisory, not the agent's state; ObservationGap says why none.",
    input: {
      agent: z.string(),
      source: z.enum(ObservationSource).default('RECENT'),
      lines: z.number().int().min(1).max(200).default(40),
    },
    types: ['Observation', 'ObservationGap', 'UnknownAgent', 'ScopeGap'],
    readOnly: true,
    async run({ agent, source, lines }) {
      const { observe: o } = await ctx.client.request(ObserveDocument, {
        goalId: await ctx.goal(),
        agentId: agent,
        source,
        lines,
      });
      if (o.__typename === 'Observation') return answer('Observation', o.lines.join('\n'), o);
      if (o.__typename === 'ObservationGap')
        return answer('ObservationGap', `ObservationGap: ${o.reason}`, o);
      return answer(o.__typename, o.__typename, o);
    },
  });

  registerTool(server, ctx, 'close_goal', {
    description:
      'Close the goal (STEWARD/ADMIN): GoalClosureRefused lists every reason while any holds.',
    input: { acceptance_refs: z.array(z.string()).min(1).max(20), reason: z.string().min(1) },
    types: ['GoalClosed', 'GoalClosureRefused', 'ScopeGap'],
    async run({ acceptance_refs, reason }) {
      const { closeGoal: r } = await ctx.client.request(CloseGoalDocument, {
        input: { goalId: await ctx.goal(), acceptanceRefs: acceptance_refs, reason },
      });
      if (r.__typename === 'GoalClosed')
        return answer('GoalClosed', `closed: ${r.closure.reason}`, r);
      if (r.__typename === 'GoalClosureRefused')
        return answer(r.__typename, `refused: ${r.reasons.map((x) => x.kind).join(', ')}`, r);
      return answer(r.__typename, r.__typename, r);
    },
  });
}
