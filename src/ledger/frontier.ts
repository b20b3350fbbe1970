/**
 * The other-agent frontier: every other active agent of the goal compressed into one row
 * (vision, top claimed todo, pending handoff, latest material row), never their rows. Computed
 * once per state of the goal and cached by its stamp.
 */

import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { activeAgentSql } from '../registry/scope.ts';
import { agentsTable, delegationsTable } from '../registry/tables.ts';
import { todosTable, visionsTable } from '../work/tables.ts';
import type { LedgerContext } from './access.ts';
import { LEDGER_LIMITS } from './limits.ts';
import { liveStatuses } from './scope.ts';
import { ledgerEventsTable } from './tables.ts';

export const handoffStates = ['NONE', 'OUTGOING', 'INCOMING'] as const;
export type HandoffState = (typeof handoffStates)[number];

export interface OtherAgentFrontierRow {
  readonly agentId: string;
  readonly visionSummary: string | null;
  readonly topTodoId: string | null;
  readonly topTodo: string | null;
  readonly handoffState: HandoffState;
  readonly latestMaterialAt: Date | null;
}

/** Every active agent of a goal, compressed, as computed for one frontier stamp. */
interface GoalFrontier {
  readonly rows: OtherAgentFrontierRow[];
  /** Active agents in the goal; more than rows.length when the read was cut at the cap. */
  readonly total: number;
}

/**
 * Goal frontiers of recently read goals, each kept with the stamp it was computed for (the
 * goal's ledger head, work sequence and registry: everything it is computed from). A read
 * whose stamp, taken in its own snapshot, matches gets the same rows a recomputation would
 * give; any change of the goal moves the stamp. One per gateway instance, bounded.
 */
export class FrontierCache {
  private readonly entries = new Map<string, { stamp: string; frontier: GoalFrontier }>();

  constructor(private readonly capacity = 1000) {}

  get(goalId: string, stamp: string): GoalFrontier | null {
    const entry = this.entries.get(goalId);
    if (!entry || entry.stamp !== stamp) return null;
    this.entries.delete(goalId); // most recently used last
    this.entries.set(goalId, entry);
    return entry.frontier;
  }

  set(goalId: string, stamp: string, frontier: GoalFrontier): void {
    this.entries.delete(goalId);
    this.entries.set(goalId, { stamp, frontier });
    const oldest = this.entries.keys().next().value;
    if (this.entries.size > this.capacity && oldest !== undefined) this.entries.delete(oldest);
  }
}

/** Every active agent of the goal except `agentId`, at most the cap, from the cache or the database. */
export async function otherAgentFrontier(
  q: Queryable,
  goalId: string,
  agentId: string,
  context: LedgerContext,
  cache: FrontierCache | null,
): Promise<{ rows: OtherAgentFrontierRow[]; omitted: number }> {
  let frontier = cache?.get(goalId, context.frontierStamp) ?? null;
  if (!frontier) {
    frontier = await goalFrontier(q, goalId);
    cache?.set(goalId, context.frontierStamp, frontier);
  }
  const rows = frontier.rows
    .filter((row) => row.agentId !== agentId)
    .slice(0, LEDGER_LIMITS.frontierRows);
  return { rows, omitted: frontier.total - (context.active ? 1 : 0) - rows.length };
}

/**
 * Every active agent of the goal (up to the cap plus one, so that the reader's own row can be
 * left out), compressed: its vision summary, its top claimed live todo, whether a handoff is
 * pending (see HandoffState), and when it last recorded a material row. Two statements;
 * each agent costs two index probes, whatever the size of the ledger.
 */
async function goalFrontier(q: Queryable, goalId: string): Promise<GoalFrontier> {
  const cap = LEDGER_LIMITS.frontierRows + 1;
  const a = agentsTable;
  const d = delegationsTable;
  const v = visionsTable;
  const e = alias(ledgerEventsTable, 'e');
  const t = todosTable;
  // Every agent the goal knows (registered there or delegated to it), while it is active.
  const active = sql`select c.agent_id from (
      select ${a.agentId} from ${a} where ${a.goalId} = ${goalId}
      union select ${d.agentId} from ${d} where ${d.goalId} = ${goalId}) c
    where ${activeAgentSql(goalId, sql`c.agent_id`)}`;
  const [agentRows, tops] = await Promise.all([
    // Two index probes per agent: its latest material row, and the latest handoff naming it.
    q.execute(sql`select p.agent_id, ${v.visionSummary} as vision_summary,
        m.seq::text as material_seq, m.event_kind = 'HANDOFF' as material_is_handoff,
        to_char(m.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          as latest_material_at,
        (select ${e.seq}::text from ${ledgerEventsTable} as ${e}
          where ${e.goalId} = ${goalId} and ${e.relatedAgentId} = p.agent_id
            and ${e.eventKind} = 'HANDOFF'
          order by ${e.seq} desc limit 1) as handoff_in_seq
      from (${active} order by agent_id limit ${cap + 1}) p
      left join ${v} on ${v.goalId} = ${goalId} and ${v.agentId} = p.agent_id
      left join lateral (select ${e.seq}, ${e.eventKind}, ${e.recordedAt} from ${ledgerEventsTable} as ${e}
          where ${e.goalId} = ${goalId} and ${e.agentId} = p.agent_id and ${e.material}
          order by ${e.seq} desc limit 1) m on true
      order by p.agent_id`),
    // Each agent's highest-priority live claimed todo, from one pass over the goal's todos.
    q
      .selectDistinctOn([t.claimedBy], { claimedBy: t.claimedBy, id: t.id, title: t.title })
      .from(t)
      .where(and(eq(t.goalId, goalId), inArray(t.status, liveStatuses), isNotNull(t.claimedBy)))
      .orderBy(t.claimedBy, desc(t.priority), t.createdAt, t.id),
  ]);
  const rows = rowsOf<{
    agent_id: string;
    vision_summary: string | null;
    material_seq: string | null;
    material_is_handoff: boolean | null;
    latest_material_at: string | null;
    handoff_in_seq: string | null;
  }>(agentRows);
  const topOf = new Map(tops.map((top) => [top.claimedBy, top]));
  let total = rows.length;
  if (rows.length > cap) {
    const [count] = rowsOf<{ n: number }>(
      await q.execute(sql`select count(*)::int as n from (${active}) p`),
    );
    total = count?.n ?? rows.length;
  }
  const seqOf = (value: string | null) => (value === null ? -1n : BigInt(value));
  return {
    total,
    rows: rows.slice(0, cap).map((row) => {
      const top = topOf.get(row.agent_id);
      return {
        agentId: row.agent_id,
        visionSummary: row.vision_summary,
        topTodoId: top?.id ?? null,
        topTodo: top?.title ?? null,
        handoffState:
          seqOf(row.handoff_in_seq) > seqOf(row.material_seq)
            ? 'INCOMING'
            : row.material_is_handoff
              ? 'OUTGOING'
              : 'NONE',
        latestMaterialAt: row.latest_material_at === null ? null : new Date(row.latest_material_at),
      };
    }),
  };
}
