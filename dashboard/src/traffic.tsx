import { useEffect, useState } from 'preact/hooks';
import { DeliveriesDocument, type DeliveriesQuery, WaitsDocument } from '../../src/client/index.ts';
import { ErrorNotice, Loading, ScopeGapNotice, Section } from './common.tsx';
import { Timeline } from './delivery.tsx';
import { ago, href, until, words } from './format.ts';
import { useConnection, useLoad, useNow, useWakeAt } from './hooks.ts';

type Listing = DeliveriesQuery['deliveries'];
type Row = Listing['rows'][number];

export const DELIVERY_PAGE = 20;

/** A delivery from a credential that is no agent. */
const SENDER_WORDS: Record<string, string> = {
  ADMIN: 'the operator (admin)',
  STEWARD: 'a steward',
};
/** The most rows one re-read brings up to date (the gateway's page bound). */
const MAX_REFRESH = 100;

const earliest = (times: (string | null | undefined)[]): number | null => {
  const future = times
    .filter((t): t is string => typeof t === 'string')
    .map(Date.parse)
    .filter((t) => t > Date.now());
  return future.length > 0 ? Math.min(...future) : null;
};

/** When time alone can next move one of these deliveries: the window end, then the deadline. */
const nextDeliveryBoundary = (rows: readonly Row[]) =>
  earliest(
    rows
      .filter((row) => !row.history.some((change) => change.final))
      .flatMap((row) => [row.windowEndsAt, row.deadline]),
  );

/**
 * The deliveries to and from an agent, newest first, each with its outcome timeline. Re-read
 * (up to the rows shown, at most 100) whenever `pulse` moves and at the next window end or
 * deadline of an open one, so outcomes follow live; older pages are loaded on demand. Rows
 * are merged by id, and a delivery is never removed, so a re-read never hides one.
 */
export function DeliveriesView(props: { goalId: string; agentId: string; pulse: number }) {
  const { client } = useConnection();
  const now = useNow(5000);
  const [first, setFirst] = useState<Listing>();
  const [rows, setRows] = useState<Map<string, Row>>(new Map());
  const [older, setOlder] = useState<{ hasOlder: boolean; cursor: string | null }>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const wake = useWakeAt(nextDeliveryBoundary([...rows.values()]));

  // A new agent: start over.
  useEffect(() => {
    setFirst(undefined);
    setRows(new Map());
    setOlder(undefined);
  }, [props.goalId, props.agentId]);

  useEffect(() => {
    let current = true;
    const limit = Math.min(MAX_REFRESH, Math.max(DELIVERY_PAGE, rows.size));
    client
      .request(DeliveriesDocument, { goalId: props.goalId, agentId: props.agentId, limit })
      .then(
        ({ deliveries }) => {
          if (!current) return;
          setFirst(deliveries);
          setError(undefined);
          setRows((known) => merge(known, deliveries.rows));
          // Only the first read sets where older pages start; a later one may reach less far.
          setOlder(
            (cursor) => cursor ?? { hasOlder: deliveries.hasOlder, cursor: deliveries.olderCursor },
          );
        },
        (failure: Error) => current && setError(failure.message),
      );
    return () => {
      current = false;
    };
  }, [client, props.goalId, props.agentId, props.pulse, wake]);

  const loadOlder = async () => {
    if (!older?.cursor) return;
    setBusy(true);
    try {
      const { deliveries } = await client.request(DeliveriesDocument, {
        goalId: props.goalId,
        agentId: props.agentId,
        limit: DELIVERY_PAGE,
        before: older.cursor,
      });
      setRows((known) => merge(known, deliveries.rows));
      setOlder({ hasOlder: deliveries.hasOlder, cursor: deliveries.olderCursor });
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const title = 'Deliveries to and from it';
  if (!first)
    return (
      <Section title={title} id="deliveries-title">
        {error ? <ErrorNotice error={error} /> : <Loading what="its deliveries" />}
      </Section>
    );
  if (first.scopeGap)
    return (
      <Section title={title} id="deliveries-title">
        <ScopeGapNotice gap={first.scopeGap} what="this agent’s deliveries" />
      </Section>
    );
  const shown = [...rows.values()].sort((a, b) => (BigInt(b.seq) > BigInt(a.seq) ? 1 : -1));
  return (
    <Section title={title} id="deliveries-title">
      {error && <ErrorNotice error={error} />}
      {first.limitations.includes('ONLY_CALLERS_OWN_DELIVERIES') && (
        <p class="notice scope-gap" role="status" data-limitation="ONLY_CALLERS_OWN_DELIVERIES">
          <strong>Partial:</strong> a peer token sees only the deliveries it sent to or received
          from this agent. Its other deliveries are not shown, not absent.
        </p>
      )}
      {shown.length === 0 ? (
        <p class="muted">No deliveries to or from this agent.</p>
      ) : (
        <div class="table-wrap">
          <table data-testid="deliveries">
            <caption class="visually-hidden">
              Deliveries to and from {props.agentId}, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Delivery</th>
                <th scope="col">Direction</th>
                <th scope="col">Kind</th>
                <th scope="col">Outcome</th>
                <th scope="col">Timeline</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => {
                const incoming = row.to === props.agentId;
                const other = incoming ? row.from : row.to;
                return (
                  <tr key={row.id} data-delivery={row.id} data-outcome={row.outcome}>
                    <th scope="row">
                      <a href={href.delivery(props.goalId, row.id)}>{row.subject}</a>
                      <div class="muted">
                        #{row.seq} · {ago(row.submittedAt, now)}
                      </div>
                    </th>
                    <td>
                      {incoming ? 'from ' : 'to '}
                      {other ? (
                        <a href={href.agent(props.goalId, other)}>{other}</a>
                      ) : (
                        (SENDER_WORDS[row.sender.kind] ?? words(row.sender.kind))
                      )}
                    </td>
                    <td>{words(row.kind)}</td>
                    <td>
                      <span class={`badge outcome-${row.outcome.toLowerCase()}`}>
                        {words(row.outcome)}
                      </span>
                      {row.limitations.length > 0 && (
                        <div class="muted">{row.limitations.map(words).join('; ')}</div>
                      )}
                    </td>
                    <td>
                      <Timeline delivery={row} compact />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {older?.hasOlder ? (
        <button type="button" onClick={loadOlder} disabled={busy} data-testid="deliveries-older">
          {busy ? 'Loading…' : `Load older deliveries (${DELIVERY_PAGE} per page)`}
        </button>
      ) : (
        shown.length > 0 && <p class="muted">No older deliveries.</p>
      )}
    </Section>
  );
}

function merge(known: Map<string, Row>, fresh: readonly Row[]): Map<string, Row> {
  const next = new Map(known);
  for (const row of fresh) next.set(row.id, row);
  return next;
}

/**
 * The waits still pending on an agent (it is one of their targets), re-read when `pulse`
 * moves and at the next deadline: a wait leaves the list once it has an outcome.
 */
export function WaitsView(props: { goalId: string; agentId: string; pulse: number }) {
  const { client } = useConnection();
  const now = useNow(1000);
  const [deadline, setDeadline] = useState<number | null>(null);
  const wake = useWakeAt(deadline);
  const { data, error } = useLoad(
    () =>
      client.request(WaitsDocument, {
        goalId: props.goalId,
        agentId: props.agentId,
        status: 'PENDING',
        limit: 50,
      }),
    [client, props.goalId, props.agentId, props.pulse, wake],
  );
  const listing = data?.waits;
  useEffect(() => {
    setDeadline(earliest(listing?.rows.map((row) => row.deadline) ?? []));
  }, [listing]);
  return (
    <Section title="Pending waits on it" id="waits-title">
      {error && <ErrorNotice error={error} />}
      {!listing ? (
        !error && <Loading what="its waits" />
      ) : listing.scopeGap ? (
        <ScopeGapNotice gap={listing.scopeGap} what="the waits on this agent" />
      ) : listing.rows.length === 0 ? (
        <p class="muted">No pending waits on this agent.</p>
      ) : (
        <div class="table-wrap">
          <table data-testid="waits">
            <caption class="visually-hidden">Pending waits on {props.agentId}</caption>
            <thead>
              <tr>
                <th scope="col">Wait</th>
                <th scope="col">Until</th>
                <th scope="col">Pinned to</th>
                <th scope="col">Other targets</th>
                <th scope="col">Times out</th>
              </tr>
            </thead>
            <tbody>
              {listing.rows.map((wait) => {
                const target = wait.targets.find((t) => t.agentId === props.agentId);
                const others = wait.targets.filter((t) => t.agentId !== props.agentId);
                return (
                  <tr key={wait.id} data-wait={wait.id}>
                    <th scope="row">
                      <code>{wait.id}</code>
                      <div class="muted">started {ago(wait.createdAt, now)}</div>
                    </th>
                    <td>{wait.accept.map(words).join(' or ')}, after a change</td>
                    <td>
                      {target?.pinned ? (
                        <>
                          <code>{target.pin.occupantRef}</code> at{' '}
                          <code>{target.pin.providerSessionRef}</code> (baseline #
                          {target.baselineSeq})
                        </>
                      ) : (
                        <span class="muted">
                          not pinned{target?.limitation ? `: ${words(target.limitation)}` : ''}
                        </span>
                      )}
                      {target?.pin.todoId && (
                        <div>
                          on{' '}
                          <a href={href.todo(props.goalId, target.pin.todoId)}>
                            {target.pin.todoId}
                          </a>
                        </div>
                      )}
                    </td>
                    <td>
                      {others.length === 0
                        ? '—'
                        : others.map((t, i) => (
                            <span key={t.agentId}>
                              {i > 0 && ', '}
                              <a href={href.agent(props.goalId, t.agentId)}>{t.agentId}</a>
                            </span>
                          ))}
                    </td>
                    <td>
                      <time dateTime={wait.deadline} title={wait.deadline}>
                        {until(wait.deadline, now)}
                      </time>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {listing && listing.omittedRowCount > 0 && (
        <p class="truncated">{listing.omittedRowCount} more pending waits not shown (truncated).</p>
      )}
    </Section>
  );
}
