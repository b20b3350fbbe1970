/** send, delivery, inbox, next, read, resolve, release: bounded requests and the inbox. */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import {
  DeliverDocument,
  DeliveryDocument,
  type DeliveryFieldsFragment,
  DeliveryKind,
  type DeliveryNoticeVia,
  type DeliveryOutcome,
  InboxDocument,
  type InboxMessageFieldsFragment,
  MarkReadDocument,
  ReleaseMessageDocument,
  ResolveMessageDocument,
  TakeNextMessageDocument,
} from '../../client/index.ts';
import { type Context, duration, enumArg, examples, int, run } from '../context.ts';
import { Exit, ExitCode, usage } from '../exit-codes.ts';
import { failureOf } from '../outcomes.ts';
import { ago, bold, dim, inert, json, table, warn } from '../output.ts';

/** How each safe-point receipt reads in a delivery's line. */
const NOTICE_VIA: Record<DeliveryNoticeVia, string> = {
  LIFECYCLE_HOOK: 'hook hand-over',
  TERMINAL_NOTICE: 'terminal notice',
  TERMINAL_SIGNAL: 'shown to the person, not typed',
};

/** The exit code of a delivery outcome. */
export function outcomeExit(outcome: DeliveryOutcome, id: string): Exit | undefined {
  switch (outcome) {
    case 'STALLED':
      return new Exit(
        ExitCode.STALLED,
        `delivery ${id} STALLED: no activity observed within its window`,
        outcome,
      );
    case 'EXPIRED':
      return new Exit(
        ExitCode.TIMED_OUT,
        `delivery ${id} EXPIRED: the sender's timeout passed with no activity`,
        outcome,
      );
    case 'UNREACHABLE':
      return new Exit(
        ExitCode.NOT_RUNNING,
        `delivery ${id} UNREACHABLE: the pinned recipient is gone`,
        outcome,
      );
    default:
      return undefined;
  }
}

function deliveryText(d: DeliveryFieldsFragment): string {
  const lines = [
    `${bold(d.outcome)}  ${d.kind.toLowerCase()} ${d.id} to ${d.to}${d.replayed ? warn(' (replayed: the original, not resent)') : ''}`,
    dim(`subject: ${d.subject}`),
    dim(
      `thread ${d.threadId}${d.replyTo ? `, reply to ${d.replyTo}` : ''}, seq ${d.seq}, submitted ${ago(d.submittedAt)}; notified ${d.receipt.notifiedAt ? `${ago(d.receipt.notifiedAt)} (${d.receipt.notices.map((n) => NOTICE_VIA[n.via]).join(', ')})` : 'no'}, read ${d.receipt.readAt ? ago(d.receipt.readAt) : 'no'}, processed ${d.receipt.processedAt ? ago(d.receipt.processedAt) : 'no'}`,
    ),
  ];
  if (d.pin.state !== 'PINNED')
    lines.push(
      dim(`activity cannot be observed (${d.pin.state}): SUBMITTED is all that will be known`),
    );
  else if (d.outcome === 'SUBMITTED')
    lines.push(dim(`activity window ends ${ago(d.windowEndsAt)}, deadline ${ago(d.deadline)}`));
  return lines.join('\n');
}

function messageText(m: InboxMessageFieldsFragment, withBody: boolean): string {
  const head = `${bold(m.id)}  ${m.kind.toLowerCase()} from ${m.from ?? m.sender.kind.toLowerCase()}: ${m.subject}`;
  const meta = dim(
    `thread ${m.threadId}${m.replyTo ? `, reply to ${m.replyTo}` : ''}${m.todoId ? `, todo ${m.todoId}` : ''}, submitted ${ago(m.submittedAt)}`,
  );
  return withBody ? `${head}\n${meta}\n\n${m.body}` : `${head}\n${meta}`;
}

function readBody(options: { body?: string; bodyFile?: string }, stdinDash: boolean): string {
  const sources = [options.body !== undefined, options.bodyFile !== undefined, stdinDash].filter(
    Boolean,
  );
  if (sources.length > 1) throw usage('give the body one way: --body, --body-file or -');
  if (options.body !== undefined) return options.body;
  if (options.bodyFile === '-' || stdinDash) return readFileSync(0, 'utf8');
  if (options.bodyFile !== undefined) {
    try {
      return readFileSync(options.bodyFile, 'utf8');
    } catch {
      throw usage(`cannot read --body-file ${options.bodyFile}`);
    }
  }
  throw usage('no body: pass --body TEXT, --body-file F, or - to read standard input');
}

/** Follows a delivery's outcome until it leaves SUBMITTED (or `final` with `toEnd`). */
async function followOutcome(
  ctx: Context,
  d: DeliveryFieldsFragment,
  toEnd: boolean,
  onChange?: (change: unknown) => void,
): Promise<DeliveryOutcome> {
  const { deliveryOutcomes, streamOptions, progress } = await import('../streaming.ts');
  const spinner = progress(
    ctx,
    `delivery ${d.id} to ${d.to} (pinned ${d.pin.occupantRef ?? '?'}): ${d.outcome}`,
  );
  const giveUpAt = Date.parse(d.deadline) + 60_000;
  let outcome = d.outcome;
  try {
    for await (const change of deliveryOutcomes(
      streamOptions(ctx, giveUpAt, (why) => spinner.update(`reconnecting (${why})`)),
      d.id,
      d.outcomeVersion,
    )) {
      if (change.__typename === 'UnknownDelivery') throw failureOf(change);
      onChange?.(change);
      outcome = change.outcome;
      spinner.update(`delivery ${d.id} to ${d.to}: ${outcome}`);
      if (!toEnd && outcome !== 'SUBMITTED') break;
    }
  } finally {
    spinner.stop();
  }
  return outcome;
}

export function deliveryCommands(program: Command): void {
  program
    .command('send [stdin]')
    .description(
      'deliver a bounded request or context to one agent; without --to, to your primary or only connected peer (else refused AMBIGUOUS_TARGET)',
    )
    .option('--to <agent>', 'the recipient agent')
    .requiredOption('--subject <text>', 'one-line subject')
    .option('--body <text>', 'the body (at most 16 KiB)')
    .option('--body-file <file>', 'read the body from a file (- for standard input)')
    .option('--reply-to <id>', 'the message this answers (its thread is kept)')
    .option('--thread <id>', 'thread id')
    .option('--todo <id>', 'the todo it is about (claims nothing)')
    .option(
      '--key <key>',
      'idempotency key: a retry with the same key returns the original (default: random)',
    )
    .option('--kind <kind>', 'request or context', enumArg(Object.values(DeliveryKind)), 'REQUEST')
    .option('--window <duration>', 'activity window before STALLED (e.g. 10m)', duration)
    .option('--timeout <duration>', "the sender's timeout before EXPIRED (e.g. 1h)", duration)
    .option(
      '--wait',
      'wait for the first outcome after SUBMITTED: ACTIVITY_OBSERVED, STALLED, EXPIRED, UNREACHABLE',
    )
    .addHelpText(
      'after',
      examples(
        'switchboard send --to reviewer --subject "review #12" --body "diff in src/x.ts" --wait',
        'git diff | switchboard send --to reviewer --subject "this diff" -',
        'switchboard send --reply-to d-123 --subject "done" --body "merged" --key reply-d-123',
      ),
    )
    .action(
      run<
        {
          to?: string;
          subject: string;
          body?: string;
          bodyFile?: string;
          replyTo?: string;
          thread?: string;
          todo?: string;
          key?: string;
          kind: string;
          window?: number;
          timeout?: number;
          wait?: boolean;
        },
        [string | undefined]
      >(async (ctx, options, stdin) => {
        if (stdin !== undefined && stdin !== '-')
          throw usage(`unexpected argument "${stdin}": only - (read stdin)`);
        const body = readBody(options, stdin === '-');
        const goalId = await ctx.goal();
        const { deliver } = await ctx.client.request(DeliverDocument, {
          input: {
            goalId,
            to: options.to,
            kind: options.kind as DeliveryKind,
            subject: options.subject,
            body,
            replyTo: options.replyTo,
            threadId: options.thread,
            todoId: options.todo,
            idempotencyKey: options.key ?? globalThis.crypto.randomUUID(),
            activityWindowMs: options.window,
            timeoutMs: options.timeout,
          },
        });
        if (deliver.__typename === 'DeliveryRefused') {
          const choices = deliver.choices.length
            ? `; choices: ${deliver.choices.join(', ')} (pass --to)`
            : '';
          const code =
            deliver.reason === 'SCOPE_GAP'
              ? ExitCode.SCOPE_GAP
              : deliver.reason === 'UNKNOWN_TARGET'
                ? ExitCode.NOT_FOUND
                : ExitCode.REFUSED;
          const why =
            deliver.reason === 'AGENT_BLOCKED'
              ? `${deliver.target} is BLOCKED (at a gate its owner must resolve); nothing was written`
              : deliver.reason === 'AMBIGUOUS_TARGET'
                ? 'no single target: name one with --to, or set a primary with `switchboard peer primary <agent>`'
                : deliver.reason === 'NOT_READY'
                  ? `not ready (${deliver.notReadyReason}${deliver.notReadyReason === 'NO_CONNECTED_PEER' ? ': pass --to or `switchboard peer add <agent>`' : ''})`
                  : deliver.reason === 'UNKNOWN_TARGET'
                    ? `no agent ${deliver.target} in goal ${deliver.goalId}`
                    : `scope gap on goal ${deliver.goalId}`;
          return ctx.finish(
            deliver,
            () => undefined,
            new Exit(code, `refused ${deliver.reason}: ${why}${choices}`, deliver.reason),
          );
        }
        if (deliver.__typename === 'IdempotencyConflict')
          return ctx.finish(deliver, () => undefined, failureOf(deliver));
        if (!options.wait || deliver.pin.state !== 'PINNED' || deliver.outcome !== 'SUBMITTED')
          return ctx.finish(deliver, deliveryText, outcomeExit(deliver.outcome, deliver.id));
        const outcome = await followOutcome(ctx, deliver, false);
        const { delivery } = await ctx.client.request(DeliveryDocument, { id: deliver.id });
        await ctx.finish(
          delivery,
          (shown) => (shown.__typename === 'Delivery' ? deliveryText(shown) : undefined),
          outcomeExit(outcome, deliver.id),
        );
      }),
    );

  program
    .command('delivery <id>')
    .description('a delivery you sent: its outcome, history and receipts')
    .option('--follow', 'print each outcome change until no change can come')
    .addHelpText(
      'after',
      examples('switchboard delivery d-123', 'switchboard delivery d-123 --follow --json'),
    )
    .action(
      run<{ follow?: boolean }, [string]>(async (ctx, options, id) => {
        const { delivery } = await ctx.client.request(DeliveryDocument, { id });
        if (delivery.__typename !== 'Delivery')
          return ctx.finish(delivery, () => undefined, failureOf(delivery));
        if (!options.follow)
          return ctx.finish(delivery, deliveryText, outcomeExit(delivery.outcome, id));
        // --follow: one line per outcome change (JSON lines with --json), the history first
        const line = (change: { outcome: string; effectiveAt: string; reason: string | null }) => {
          if (ctx.json) process.stdout.write(`${json(change)}\n`);
          else if (!ctx.quiet)
            process.stdout.write(
              `${change.outcome}${change.reason ? ` (${inert(change.reason)})` : ''}  ${ago(change.effectiveAt)}\n`,
            );
        };
        if (!ctx.json) await ctx.print(delivery, (shown) => `${deliveryText(shown)}\n\n`);
        for (const change of delivery.history) line(change);
        let outcome = delivery.outcome;
        if (!delivery.history.some((h) => h.final) && delivery.pin.state === 'PINNED')
          outcome = await followOutcome(ctx, delivery, true, (change) => line(change as never));
        const exit = outcomeExit(outcome, id);
        if (exit) throw exit;
      }),
    );

  program
    .command('inbox')
    .description('your inbox, newest first (reading it marks nothing read)')
    .option('--unread', 'only unread messages')
    .option('--unprocessed', 'only unprocessed messages')
    .option('--tail <n>', 'how many of the newest (default 20, at most 200)', int)
    .option('--after <cursor>', 'only messages after this cursor (a previous answer cursor)')
    .addHelpText(
      'after',
      examples('switchboard inbox --unprocessed', 'switchboard inbox --tail 5 --json'),
    )
    .action(
      run<{ unread?: boolean; unprocessed?: boolean; tail?: number; after?: string }>(
        async (ctx, options) => {
          const goalId = await ctx.goal();
          const { inbox } = await ctx.client.request(InboxDocument, {
            goalId,
            unread: options.unread,
            unprocessed: options.unprocessed,
            tail: options.tail,
            after: options.after,
          });
          await ctx.finish(
            inbox,
            async (inbox) => {
              if (inbox.__typename !== 'Inbox') return undefined;
              const lines = [
                inbox.messages.length === 0
                  ? dim('no messages')
                  : await table(
                      ['id', 'kind', 'from', 'subject', 'submitted', 'read', 'processed'],
                      inbox.messages.map((m) => [
                        `${m.id}${m.active ? ' (active)' : ''}`,
                        m.kind.toLowerCase(),
                        m.from ?? m.sender.kind.toLowerCase(),
                        m.subject,
                        ago(m.submittedAt),
                        m.readAt ? 'yes' : 'no',
                        m.processedAt ? 'yes' : 'no',
                      ]),
                    ),
                dim(
                  `${inbox.unreadCount} unread, ${inbox.unprocessedCount} unprocessed; cursor ${inbox.cursor}`,
                ),
              ];
              if (inbox.omittedCount > 0)
                lines.push(warn(`${inbox.omittedCount} older messages not shown (raise --tail)`));
              return lines.join('\n');
            },
            failureOf(inbox),
          );
        },
      ),
    );

  program
    .command('next')
    .description(
      'take the next message: the active one until you resolve or release it, else the oldest unprocessed (exit 12 when none)',
    )
    .addHelpText(
      'after',
      examples('switchboard next', 'switchboard next --json && switchboard resolve <id>'),
    )
    .action(
      run(async (ctx) => {
        const goalId = await ctx.goal();
        const { takeNextMessage } = await ctx.client.request(TakeNextMessageDocument, { goalId });
        await ctx.finish(
          takeNextMessage,
          (taken) =>
            taken.__typename === 'TakenMessage'
              ? `${taken.repeated ? `${warn('(still active: resolve or release it)')}\n` : ''}${messageText(taken.message, true)}`
              : undefined,
          failureOf(takeNextMessage),
        );
      }),
    );

  program
    .command('read <ids...>')
    .description('mark messages of your inbox read (once)')
    .addHelpText('after', examples('switchboard read d-1 d-2'))
    .action(
      run<object, [string[]]>(async (ctx, _options, ids) => {
        const { markRead } = await ctx.client.request(MarkReadDocument, { ids });
        await ctx.finish(
          markRead,
          (markRead) =>
            markRead.__typename === 'MarkedRead'
              ? markRead.messages.map((m) => `read ${m.id} (${ago(m.readAt)})`).join('\n')
              : undefined,
          failureOf(markRead),
        );
      }),
    );

  type MessageResult = {
    __typename: 'InboxMessage' | 'ScopeGap';
  } & Partial<InboxMessageFieldsFragment>;
  const messageVerb = (
    verb: string,
    what: string,
    call: (ctx: Context, id: string) => Promise<MessageResult>,
  ) =>
    program
      .command(`${verb} [id]`)
      .description(what)
      .option('--active', 'the active message (the one `next` returned)')
      .addHelpText('after', examples(`switchboard ${verb} d-123`, `switchboard ${verb} --active`))
      .action(
        run<{ active?: boolean }, [string | undefined]>(async (ctx, options, given) => {
          let id = given;
          if (!id && options.active) {
            const { inbox } = await ctx.client.request(InboxDocument, {
              goalId: await ctx.goal(),
              tail: 1,
            });
            if (inbox.__typename !== 'Inbox')
              return ctx.finish(inbox, () => undefined, failureOf(inbox));
            if (!inbox.activeMessageId)
              throw new Exit(
                ExitCode.EMPTY,
                'no active message: `switchboard next` takes one',
                'InboxEmpty',
              );
            id = inbox.activeMessageId;
          }
          if (!id) throw usage(`${verb} needs a message id, or --active`);
          const result = await call(ctx, id);
          await ctx.finish(
            result,
            (result) =>
              result.__typename === 'InboxMessage'
                ? `${verb === 'resolve' ? 'processed' : 'released'} ${result.id}: ${result.subject}`
                : undefined,
            failureOf(result),
          );
        }),
      );
  messageVerb(
    'resolve',
    'mark a message processed: `next` never returns it again (not a reply, not a verdict)',
    async (ctx, id) => (await ctx.client.request(ResolveMessageDocument, { id })).resolveMessage,
  );
  messageVerb(
    'release',
    'put the active message back unprocessed, freeing the slot (not a rejection)',
    async (ctx, id) => (await ctx.client.request(ReleaseMessageDocument, { id })).releaseMessage,
  );
}
