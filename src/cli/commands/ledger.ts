/** evidence-log, record, checkpoint: the agent-scoped evidence ledger. */
import { type Command, Option } from 'commander';
import {
  EvidenceLedgerDocument,
  LedgerEventKind,
  RecordEventDocument,
  RecordReplanCheckpointDocument,
  type ReplanDeltaInput,
  ReplanKind,
  ReplanObligationsDocument,
  recordableEventKinds,
} from '../../client/index.ts';
import { collect, enumArg, examples, int, run } from '../context.ts';
import { usage } from '../exit-codes.ts';
import { failureOf, scopeGapOf } from '../outcomes.ts';
import { ago, dim, table, warn } from '../output.ts';

const EVENT_KINDS = Object.values(LedgerEventKind);
const REPLAN_KINDS = Object.values(ReplanKind);

export function ledgerCommands(program: Command): void {
  program
    .command('evidence-log')
    .description(
      "an agent's scoped evidence ledger (own rows in detail, other agents compressed), oldest first, with its digest",
    )
    .option(
      '--agent <id>',
      'the agent (default: you); a host surface such as codex is not an agent id',
    )
    .option('--todo <id>', "only that todo's rows (plus gate rows that block it)")
    .option('--since <time>', 'only rows recorded after this ISO time')
    .addOption(
      new Option(
        '--kind <kind>',
        `only rows of this kind (${EVENT_KINDS.join(', ').toLowerCase()})`,
      ).argParser(enumArg(EVENT_KINDS)),
    )
    .option('--limit <n>', 'at most this many rows (1-200)', int, 30)
    .option('--before <seq>', 'only rows before this seq (page.olderCursor of a previous read)')
    .option('--thin', 'leave out the other-agent frontier; one line per row')
    .addHelpText(
      'after',
      examples(
        'switchboard evidence-log --thin --limit 30',
        'switchboard evidence-log --agent builder --todo t-1 --json',
        'switchboard evidence-log --before 120   # the next older page',
      ),
    )
    .action(
      run<{
        agent?: string;
        todo?: string;
        since?: string;
        kind?: string;
        limit: number;
        before?: string;
        thin?: boolean;
      }>(async (ctx, options) => {
        const goalId = await ctx.goal();
        const agentId = await ctx.agent(options.agent);
        const { evidenceLedger: packet } = await ctx.client.request(EvidenceLedgerDocument, {
          goalId,
          agentId,
          todoId: options.todo,
          since: options.since,
          eventKind: options.kind as LedgerEventKind | undefined,
          limit: options.limit,
          before: options.before,
          includeOtherAgentFrontier: !options.thin,
        });
        await ctx.finish(
          packet,
          async (packet) => {
            const lines: string[] = [];
            if (packet.events.length === 0) lines.push(dim('no rows in scope'));
            else if (options.thin)
              for (const e of packet.events)
                lines.push(
                  `${e.seq}  ${e.eventKind}${e.status ? `/${e.status}` : ''}  ${e.agentId ?? '-'}${e.todoId ? ` ${e.todoId}` : ''}  ${e.summary.split('\n')[0]}`,
                );
            else
              lines.push(
                await table(
                  ['seq', 'kind', 'agent', 'todo', 'relevance', 'summary', 'recorded'],
                  packet.events.map((e) => [
                    e.seq,
                    `${e.eventKind}${e.status ? `/${e.status}` : ''}`,
                    e.agentId,
                    e.todoId,
                    e.relevance,
                    e.summary.split('\n')[0]?.slice(0, 60),
                    ago(e.recordedAt),
                  ]),
                ),
              );
            if (!options.thin && packet.otherAgentFrontier.length > 0)
              lines.push(
                '',
                'other agents:',
                await table(
                  ['agent', 'top todo', 'handoff', 'latest material', 'vision'],
                  packet.otherAgentFrontier.map((o) => [
                    o.agentId,
                    o.topTodo ? `${o.topTodoId} ${o.topTodo}` : null,
                    o.handoffState,
                    ago(o.latestMaterialAt),
                    o.visionSummary?.slice(0, 40),
                  ]),
                ),
              );
            if (packet.page.hasOlder)
              lines.push(dim(`older rows: --before ${packet.page.olderCursor}`));
            for (const read of packet.readerHints.nextRequiredReads)
              lines.push(
                warn(`before ${packet.readerHints.requiredBefore.join('/')}: ${read.reason}`),
              );
            lines.push(dim(`digest ${packet.digest}`));
            return lines.join('\n');
          },
          scopeGapOf(packet),
        );
      }),
    );

  program
    .command('record')
    .description(
      'append an evidence row (screened: credentials and local paths redacted, logs refused)',
    )
    .addOption(
      new Option('--kind <kind>', `event kind (${recordableEventKinds.join(', ').toLowerCase()})`)
        .argParser(enumArg(recordableEventKinds))
        .makeOptionMandatory(),
    )
    .requiredOption('--summary <text>', 'bounded summary (500 characters, 8 lines)')
    .option('--todo <id>', 'the todo it is about')
    .option('--status <text>', 'status word, e.g. passed')
    .option('--classification <text>', 'classification')
    .option('--ref <ref>', 'relative evidence ref (repeatable)', collect)
    .option('--related-agent <id>', 'the other agent of a handoff')
    .option('--agent <id>', 'record for this agent (ADMIN/STEWARD only)')
    .addHelpText(
      'after',
      examples(
        'switchboard record --kind validation --status passed --summary "unit tests green" --ref test/x.test.ts',
        'switchboard record --kind handoff --related-agent reviewer --summary "ready for review"',
      ),
    )
    .action(
      run<{
        kind: string;
        summary: string;
        todo?: string;
        status?: string;
        classification?: string;
        ref?: string[];
        relatedAgent?: string;
        agent?: string;
      }>(async (ctx, options) => {
        const goalId = await ctx.goal();
        const { recordEvent } = await ctx.client.request(RecordEventDocument, {
          input: {
            goalId,
            eventKind: options.kind as LedgerEventKind,
            summary: options.summary,
            todoId: options.todo,
            status: options.status,
            classification: options.classification,
            evidenceRefs: options.ref,
            relatedAgentId: options.relatedAgent,
            agentId: options.agent,
          },
        });
        await ctx.finish(
          recordEvent,
          (recordEvent) =>
            recordEvent.__typename === 'LedgerEvent'
              ? `recorded ${recordEvent.eventKind} #${recordEvent.seq}${recordEvent.boundary.redactionCount ? warn(` (${recordEvent.boundary.redactionCount} redactions)`) : ''}`
              : undefined,
          failureOf(recordEvent),
        );
      }),
    );

  program
    .command('checkpoint')
    .description(
      'record a replan checkpoint citing the digest of a current, unfiltered evidence-log read',
    )
    .requiredOption('--digest <sha>', 'the digest printed by `switchboard evidence-log`')
    .addOption(
      new Option('--kind <kind>', `what the replan did (${REPLAN_KINDS.join(', ').toLowerCase()})`)
        .argParser(enumArg(REPLAN_KINDS))
        .makeOptionMandatory(),
    )
    .option(
      '--delta <text>',
      'what changed: a summary, or a JSON ReplanDeltaInput ({"summary": …, "visionSummary": …})',
    )
    .option('--agent <id>', 'the agent that replanned (default: you)')
    .addHelpText(
      'after',
      examples(
        'switchboard checkpoint --digest sha256:9f2c… --kind preserved --delta "plan holds"',
        'D=$(switchboard evidence-log --json | jq -r .digest); switchboard checkpoint --digest "$D" --kind patched --delta \'{"summary":"narrowed","roleScope":"src/cli"}\'',
      ),
    )
    .action(
      run<{ digest: string; kind: string; delta?: string; agent?: string }>(
        async (ctx, options) => {
          let delta: ReplanDeltaInput = {
            summary: options.delta ?? `${options.kind.toLowerCase()} after reading the ledger`,
          };
          if (options.delta?.trim().startsWith('{')) {
            try {
              delta = JSON.parse(options.delta) as ReplanDeltaInput;
            } catch {
              throw usage('--delta looks like JSON but does not parse');
            }
          }
          const goalId = await ctx.goal();
          const agentId = await ctx.agent(options.agent);
          const { recordReplanCheckpoint: result } = await ctx.client.request(
            RecordReplanCheckpointDocument,
            {
              goalId,
              agentId,
              digest: options.digest,
              kind: options.kind as ReplanKind,
              delta,
            },
          );
          await ctx.finish(
            result,
            (result) =>
              result.__typename === 'ReplanCheckpoint'
                ? `checkpoint recorded: REPLAN #${result.event.seq}`
                : undefined,
            failureOf(result),
          );
        },
      ),
    );

  const replan = program
    .command('replan')
    .description('replan obligations: what you owe before you go on');
  replan
    .command('owed')
    .description(
      'what an agent owes a digest-checked replan checkpoint for, and the reads to make first',
    )
    .option('--agent <id>', 'the agent (default: you)')
    .addHelpText(
      'after',
      examples('switchboard replan owed', 'switchboard replan owed --agent builder --json'),
    )
    .action(
      run<{ agent?: string }>(async (ctx, options) => {
        const goalId = await ctx.goal();
        const agentId = await ctx.agent(options.agent);
        const { replanObligations: r } = await ctx.client.request(ReplanObligationsDocument, {
          goalId,
          agentId,
        });
        await ctx.finish(
          r,
          (r) => {
            if (r.__typename !== 'ReplanObligations') return undefined;
            if (!r.owed) return `${r.agentId} owes no replan checkpoint`;
            return [
              `${r.agentId} owes a replan checkpoint:`,
              ...r.obligations.map((o) => `  ${o.kind}: ${o.detail}`),
              'read first:',
              ...r.requiredReads.map((read) => `  ${read.command ?? read.query}`),
              dim('then: switchboard checkpoint --digest <digest> --kind <kind>'),
            ].join('\n');
          },
          failureOf(r),
        );
      }),
    );
}
