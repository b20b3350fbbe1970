/**
 * The default toolset: who you are, the goal's directory and attention, your roster, bounded
 * requests to a peer (send, delivery_status), waiting for a peer, and your inbox (with
 * evidence_log from ledger.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  AttentionDocument,
  DeliverDocument,
  DeliveryDocument,
  type DeliveryFieldsFragment,
  DeliveryKind,
  DirectoryDocument,
  followWait,
  InboxDocument,
  type InboxMessageFieldsFragment,
  ReleaseMessageDocument,
  ResolveMessageDocument,
  type ResolveMessageMutation,
  RosterDocument,
  StartWaitDocument,
  settledLiveness,
  TakeNextMessageDocument,
  WaitDocument,
  type WaitResult,
} from '../../client/index.ts';
import { type McpContext, UsageError } from '../context.ts';
import { type Answer, answer, ms, registerTool, typeOf } from '../tool.ts';

type InboxMessageResult = ResolveMessageMutation['resolveMessage'];

function deliveryText(d: DeliveryFieldsFragment): string {
  const replay = d.replayed ? ' (replayed: the original, not resent)' : '';
  return `${d.outcome}: ${d.kind.toLowerCase()} ${d.id} to ${d.to}${replay}; notified at a safe point ${d.receipt.notifiedAt ? 'yes' : 'no'}, read ${d.receipt.readAt ? 'yes' : 'no'}, processed ${d.receipt.processedAt ? 'yes' : 'no'}`;
}

const messageLine = (m: InboxMessageFieldsFragment) =>
  `${m.id} from ${m.from ?? m.sender.kind.toLowerCase()}: ${m.subject}`;

const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** How many distinct contents a session remembers for its derived keys. */
const MAX_ASKS = 1000;

/**
 * The idempotency keys of one session's sends without one (docs/agents.md, "send"): a key is
 * the hash of a random number drawn when the session starts, the content (goal, recipient,
 * subject, body, kind, thread, reply, todo, window, timeout) and how many times this session
 * has already answered that content with a delivery. A retry — the same content after a call
 * whose answer did not come back (an error, a cancelled call) — gets the same key, and the
 * gateway replays the original; the same content asked again after an answer is a new ask with
 * a new key. Another session (a restarted server) never replays this one's deliveries.
 */
function sessionKeys() {
  const session = randomUUID();
  const asks = new Map<string, { n: number; answered: boolean }>();
  return (goalId: string, content: Record<string, unknown>) => {
    const digest = sha256([goalId, Object.entries(content).sort(([a], [b]) => (a < b ? -1 : 1))]);
    const last = asks.get(digest);
    const ask = last && !last.answered ? last : { n: last ? last.n + 1 : 0, answered: false };
    asks.delete(digest);
    asks.set(digest, ask);
    if (asks.size > MAX_ASKS) asks.delete(asks.keys().next().value as string);
    return {
      key: `mcp-${sha256([session, digest, ask.n]).slice(0, 40)}`,
      answered: () => {
        ask.answered = true;
      },
    };
  };
}

export function waitAnswer(result: WaitResult): Answer {
  if (result.__typename !== 'Wait')
    return answer(result.__typename, `${result.__typename}: the wait was not started`, result);
  const who = result.resolution?.agentId ?? result.pin.agentId;
  const text =
    result.status === 'SATISFIED'
      ? `SATISFIED: ${who} is ${result.resolution?.liveness} (wait ${result.id})`
      : `${result.status}${result.reason ? ` (${result.reason})` : ''}: ${result.targets.map((t) => t.agentId).join(', ')} (wait ${result.id})`;
  return answer('Wait', text, result);
}

export function coreTools(server: McpServer, ctx: McpContext): void {
  const keyFor = sessionKeys();
  /** A wait's outcome as a call answers it: the channel does not push it again. */
  const settled = (result: WaitResult) => {
    if (result.__typename === 'Wait') ctx.events.emit('settled', result.id);
    return waitAnswer(result);
  };
  registerTool(server, ctx, 'whoami', {
    description: "Who this server's credential is: kind, goal, agent.",
    input: {},
    types: ['Caller'],
    readOnly: true,
    async run() {
      const me = await ctx.me();
      return answer(
        'Caller',
        `${me.kind} ${me.agentId ?? me.providerId ?? ''} in ${me.goalId ?? me.goalIds.join(',')}`,
        me,
      );
    },
  });

  registerTool(server, ctx, 'directory', {
    description:
      "The goal's agents, claimed todos and last reported presence: a report, not proof of progress (read `stale`, `coverageGap`).",
    input: { limit: z.number().int().min(1).max(200).optional() },
    types: ['Directory', 'ScopeGap'],
    readOnly: true,
    async run({ limit }) {
      const { directory } = await ctx.client.request(DirectoryDocument, {
        goalId: await ctx.goal(),
        limit,
      });
      const lines = directory.rows.map(
        (r) =>
          `${r.agentId}: ${r.presence?.liveness ?? 'no presence'}${r.presence?.stale ? ' (stale)' : ''}${r.presence?.host ? ` on ${r.presence.host}` : ''}${r.work?.todoId ? `, todo ${r.work.todoId}` : ''}`,
      );
      return answer(typeOf(directory, 'Directory'), lines.join('\n') || 'no agents', directory);
    },
  });

  registerTool(server, ctx, 'attention', {
    description:
      'What needs a person or a peer now: blocked agents, stale claims, open gates, stalled deliveries.',
    input: { stale_claim_minutes: z.number().positive().optional() },
    types: ['Attention', 'ScopeGap'],
    readOnly: true,
    async run({ stale_claim_minutes }) {
      const { attention } = await ctx.client.request(AttentionDocument, {
        goalId: await ctx.goal(),
        staleClaimMs: ms(stale_claim_minutes === undefined ? undefined : stale_claim_minutes * 60),
      });
      const lines = attention.rows.map(
        (r) => `${r.reason} ${r.agentId ?? r.todoId ?? r.gateId ?? r.deliveryId ?? ''}`,
      );
      return answer(
        typeOf(attention, 'Attention'),
        lines.join('\n') || 'nothing needs attention',
        attention,
      );
    },
  });

  registerTool(server, ctx, 'peers', {
    description: "Your roster: your peers and your primary peer (send's default `to`).",
    input: {},
    types: ['Roster', 'ScopeGap'],
    readOnly: true,
    async run() {
      const { roster } = await ctx.client.request(RosterDocument, { goalId: await ctx.goal() });
      if (roster.__typename !== 'Roster')
        return answer(roster.__typename, `ScopeGap: ${roster.reason}`, roster);
      const lines = roster.peers.map(
        (p) => `${p.agentId}${p.isPrimary ? ' (primary)' : ''}: ${p.status}`,
      );
      return answer('Roster', lines.join('\n') || 'no peers', roster);
    },
  });

  registerTool(server, ctx, 'send', {
    description:
      'Deliver a bounded request or context to one agent; grants nothing. Without `to`: your primary or only connected peer, else AMBIGUOUS_TARGET. A retry of an unanswered call returns the original (`replayed`). SUBMITTED: stored, not read.',
    input: {
      to: z.string().optional(),
      subject: z.string().min(1),
      body: z.string().describe('at most 16 KiB'),
      kind: z.enum(DeliveryKind).default('REQUEST'),
      reply_to: z.string().optional(),
      thread: z.string().optional(),
      todo: z.string().optional().describe('its todo (claims nothing)'),
      idempotency_key: z.string().max(128).optional(),
      window_seconds: z.number().positive().optional().describe('activity window before STALLED'),
      timeout_seconds: z.number().positive().optional().describe('before EXPIRED'),
    },
    types: ['Delivery', 'DeliveryRefused', 'IdempotencyConflict'],
    async run(args, extra) {
      const goalId = await ctx.goal();
      const content = {
        to: args.to,
        subject: args.subject,
        body: args.body,
        kind: args.kind,
        replyTo: args.reply_to,
        threadId: args.thread,
        todoId: args.todo,
        activityWindowMs: ms(args.window_seconds),
        timeoutMs: ms(args.timeout_seconds),
      };
      const derived = keyFor(goalId, content);
      const { deliver } = await ctx.client.request(DeliverDocument, {
        input: { goalId, ...content, idempotencyKey: args.idempotency_key ?? derived.key },
      });
      switch (deliver.__typename) {
        case 'Delivery':
          if (!extra.signal.aborted) derived.answered();
          ctx.events.emit('sent', deliver);
          return answer('Delivery', deliveryText(deliver), deliver);
        case 'DeliveryRefused':
          return answer(
            'DeliveryRefused',
            `refused ${deliver.reason}${deliver.choices.length ? `; choices: ${deliver.choices.join(', ')}` : ''}`,
            deliver,
          );
        default:
          return answer(
            'IdempotencyConflict',
            `IdempotencyConflict: key ${deliver.idempotencyKey} was used for a different request (${deliver.differingFields.join(', ')})`,
            deliver,
          );
      }
    },
  });

  registerTool(server, ctx, 'delivery_status', {
    description:
      "A delivery's outcome and receipts (pushed, read, processed). ACTIVITY_OBSERVED is activity by the pinned recipient, not an answer.",
    input: { id: z.string() },
    types: ['Delivery', 'UnknownDelivery'],
    readOnly: true,
    async run({ id }) {
      const { delivery } = await ctx.client.request(DeliveryDocument, { id });
      if (delivery.__typename === 'UnknownDelivery')
        return answer(
          'UnknownDelivery',
          `UnknownDelivery: no delivery ${id} you can see`,
          delivery,
        );
      return answer('Delivery', deliveryText(delivery), delivery);
    },
  });

  registerTool(server, ctx, 'wait', {
    description:
      'Block until one of `agents` reports an accepted liveness after now, or the timeout. `wait_id` follows a wait again (progress names it). TIMED_OUT: no accepted change, not a stuck agent.',
    input: {
      agents: z.array(z.string()).min(1).optional(),
      until: z.array(z.enum(settledLiveness)).min(1).default(['DONE', 'IDLE']),
      timeout_seconds: z.number().positive().max(3600).optional(),
      todo: z.string().optional(),
      wait_id: z.string().optional(),
    },
    types: ['Wait', 'UnknownAgent', 'ScopeGap', 'UnknownWait', 'PendingWaitsLimited'],
    async run({ agents, until, timeout_seconds, todo, wait_id }, extra) {
      let result: WaitResult;
      if (wait_id) result = (await ctx.client.request(WaitDocument, { id: wait_id })).wait;
      else if (agents && timeout_seconds)
        result = (
          await ctx.client.request(StartWaitDocument, {
            input: {
              goalId: await ctx.goal(),
              agentIds: agents,
              accept: until,
              timeoutMs: Math.round(timeout_seconds * 1000),
              todoId: todo,
            },
          })
        ).startWait;
      else throw new UsageError('give `agents` and `timeout_seconds`, or `wait_id`');
      if (result.__typename !== 'Wait' || result.status !== 'PENDING') return settled(result);
      const wait = result;
      const targets = wait.targets.map((t) => t.agentId).join(', ');
      const token = extra._meta?.progressToken;
      const created = Date.parse(wait.createdAt);
      const tick = () => {
        if (token === undefined) return;
        const elapsed = Math.max(0, Date.now() - created);
        void extra
          .sendNotification({
            method: 'notifications/progress',
            params: {
              progressToken: token,
              progress: Math.min(elapsed, wait.timeoutMs),
              total: wait.timeoutMs,
              message: `wait ${wait.id}: ${Math.round(elapsed / 1000)} s for ${targets} (${wait.accept.join(',')})`,
            },
          })
          .catch(() => {});
      };
      tick();
      const timer = setInterval(tick, 1000);
      try {
        const final = await followWait(
          ctx.stream(extra.signal, Date.parse(wait.deadline) + 60_000),
          wait.id,
        );
        if (!final) {
          // A channel follows it on and pushes its outcome; without one, nothing follows it.
          const pushed = ctx.events.emit('waiting', wait);
          ctx.log(
            `wait ${wait.id}: cancelled; ${pushed ? 'its outcome will be pushed to the session' : 'stopped following'}`,
          );
          return answer('Wait', `cancelled: wait ${wait.id} goes on`, wait);
        }
        return settled(final);
      } finally {
        clearInterval(timer);
      }
    },
  });

  registerTool(server, ctx, 'inbox', {
    description:
      'Messages delivered to you (unprocessed by default). Listing marks nothing read; take one with next_message.',
    input: {
      all: z.boolean().optional().describe('include processed messages'),
      tail: z.number().int().min(1).max(200).default(20),
    },
    types: ['Inbox', 'UnknownAgent', 'ScopeGap'],
    readOnly: true,
    async run({ all, tail }) {
      const { inbox } = await ctx.client.request(InboxDocument, {
        goalId: await ctx.goal(),
        unprocessed: all ? undefined : true,
        tail,
      });
      if (inbox.__typename !== 'Inbox')
        return answer(inbox.__typename, `${inbox.__typename}: no inbox`, inbox);
      const head = `${inbox.unprocessedCount} unprocessed, ${inbox.unreadCount} unread`;
      return answer('Inbox', [head, ...inbox.messages.map(messageLine)].join('\n'), inbox);
    },
  });

  registerTool(server, ctx, 'next_message', {
    description:
      'Take the oldest unprocessed message (with body) as your active one; the same again until you resolve or release it (`repeated`).',
    input: {},
    types: ['TakenMessage', 'InboxEmpty', 'UnknownAgent', 'ScopeGap'],
    async run() {
      const { takeNextMessage: taken } = await ctx.client.request(TakeNextMessageDocument, {
        goalId: await ctx.goal(),
      });
      if (taken.__typename !== 'TakenMessage')
        return answer(taken.__typename, taken.__typename, taken);
      const m = taken.message;
      return answer(
        'TakenMessage',
        `${messageLine(m)}${taken.repeated ? ' (repeated)' : ''}\n\n${m.body}`,
        taken,
      );
    },
  });

  const messageTool = (
    name: string,
    verb: string,
    act: (id: string) => Promise<InboxMessageResult>,
  ) =>
    registerTool(server, ctx, name, {
      description: `${verb} Only messages of your own inbox (others: isError).`,
      input: { id: z.string() },
      types: ['InboxMessage', 'ScopeGap'],
      async run({ id }) {
        const result = await act(id);
        ctx.events.emit('inbox');
        if (result.__typename !== 'InboxMessage')
          return answer(result.__typename, `ScopeGap: ${result.reason}`, result);
        return answer(
          'InboxMessage',
          `${result.id}: processed ${result.processedAt ? 'yes' : 'no'}`,
          result,
        );
      },
    });
  messageTool(
    'resolve_message',
    'Mark a message of your inbox processed (you acted on it or decided not to).',
    async (id) => (await ctx.client.request(ResolveMessageDocument, { id })).resolveMessage,
  );
  messageTool(
    'release_message',
    'Put your active message back unprocessed, for later.',
    async (id) => (await ctx.client.request(ReleaseMessageDocument, { id })).releaseMessage,
  );
}
