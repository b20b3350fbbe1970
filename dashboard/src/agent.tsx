import { useEffect, useState } from 'preact/hooks';
import {
  EvidenceLedgerDocument,
  type EvidenceLedgerQuery,
  ledgerEvents,
  ObserveDocument,
} from '../../src/client/index.ts';
import { ErrorNotice, Loading, ScopeGapNotice, Section } from './common.tsx';
import { ago, href, words } from './format.ts';
import { useConnection, useLoad, useNow, usePresencePulse } from './hooks.ts';
import { DeliveriesView, WaitsView } from './traffic.tsx';

type Ledger = EvidenceLedgerQuery['evidenceLedger'];
type LedgerEvent = Ledger['events'][number];

export const LEDGER_PAGE = 20;

/**
 * One agent: what waits on it and what was handed to and from it (re-read on every settled
 * burst of presence changes in the goal and at the next time boundary), its evidence ledger
 * (followed live from the ledger stream), the compressed frontier of the others, and its
 * latest bounded observation (advisory).
 */
export function AgentPage(props: { goalId: string; agentId: string }) {
  const { pulse, stopped } = usePresencePulse(props.goalId);
  return (
    <>
      <h2 class="page-title">
        Agent <code>{props.agentId}</code>
      </h2>
      <nav class="on-page" aria-label="On this page">
        <button type="button" class="linklike" onClick={() => jump('waits-title')}>
          Pending waits
        </button>
        <button type="button" class="linklike" onClick={() => jump('deliveries-title')}>
          Deliveries
        </button>
        <button type="button" class="linklike" onClick={() => jump('ledger-title')}>
          Evidence ledger
        </button>
        <button type="button" class="linklike" onClick={() => jump('frontier-others-title')}>
          Other agents
        </button>
        <button type="button" class="linklike" onClick={() => jump('observation-title')}>
          Observation
        </button>
      </nav>
      {stopped && <ErrorNotice error={`live updates stopped: ${stopped}`} />}
      <WaitsView {...props} pulse={pulse} />
      <DeliveriesView {...props} pulse={pulse} />
      <LedgerView {...props} />
      <ObservationView {...props} pulse={pulse} />
    </>
  );
}

/** In-page navigation without touching the hash (the route lives there): focus the section. */
function jump(id: string) {
  const heading = document.getElementById(id);
  if (!heading) return;
  heading.setAttribute('tabindex', '-1');
  heading.focus();
  heading.scrollIntoView({ block: 'start' });
}

/** The agent's evidence ledger, newest first, one page at a time (older pages appended). */
function LedgerView(props: { goalId: string; agentId: string }) {
  const { client } = useConnection();
  const now = useNow(5000);
  const [first, setFirst] = useState<Ledger>();
  const [older, setOlder] = useState<LedgerEvent[]>([]);
  const [cursor, setCursor] = useState<{ hasOlder: boolean; olderCursor: string | null }>();
  const [live, setLive] = useState<LedgerEvent[]>([]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const connection = useConnection();

  useEffect(() => {
    let current = true;
    setFirst(undefined);
    setOlder([]);
    setLive([]);
    client
      .request(EvidenceLedgerDocument, {
        goalId: props.goalId,
        agentId: props.agentId,
        limit: LEDGER_PAGE,
        includeOtherAgentFrontier: true,
      })
      .then(
        (data) => {
          if (!current) return;
          setFirst(data.evidenceLedger);
          setCursor(data.evidenceLedger.page);
        },
        (failure: Error) => current && setError(failure.message),
      );
    return () => {
      current = false;
    };
  }, [client, props.goalId, props.agentId]);

  // Rows recorded after the first page was read arrive on the ledger stream, resumed by seq.
  const headSeq = first && !first.scopeGap ? first.page.headSeq : null;
  useEffect(() => {
    if (headSeq === null) return;
    const abort = new AbortController();
    void (async () => {
      try {
        const stream = ledgerEvents(
          connection.stream(abort.signal),
          props.goalId,
          props.agentId,
          headSeq,
        );
        for await (const item of stream) {
          if (item.__typename !== 'LedgerEvent') return;
          setLive((rows) => (rows.some((r) => r.seq === item.seq) ? rows : [...rows, item]));
        }
      } catch (failure) {
        if (!abort.signal.aborted)
          setError(`ledger updates stopped: ${(failure as Error).message}`);
      }
    })();
    return () => abort.abort();
  }, [connection, props.goalId, props.agentId, headSeq]);

  const loadOlder = async () => {
    if (!cursor?.olderCursor) return;
    setBusy(true);
    try {
      const data = await client.request(EvidenceLedgerDocument, {
        goalId: props.goalId,
        agentId: props.agentId,
        limit: LEDGER_PAGE,
        before: cursor.olderCursor,
      });
      setOlder((rows) => [...data.evidenceLedger.events, ...rows]);
      setCursor(data.evidenceLedger.page);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (!first) return error ? <ErrorNotice error={error} /> : <Loading what="the ledger" />;
  if (first.scopeGap) return <ScopeGapNotice gap={first.scopeGap} what="this agent’s ledger" />;
  const events = [...older, ...first.events, ...live];
  return (
    <>
      {error && <ErrorNotice error={error} />}
      <Section title="Evidence ledger" id="ledger-title">
        <p class="muted">
          Digest <code data-testid="digest">{first.digest}</code> · audience{' '}
          {first.scope.audience ? words(first.scope.audience) : 'none'} · head seq{' '}
          {first.page.headSeq ?? '—'}
        </p>
        {cursor?.hasOlder ? (
          <button type="button" onClick={loadOlder} disabled={busy} data-testid="ledger-older">
            {busy ? 'Loading…' : `Load older rows (${LEDGER_PAGE} per page)`}
          </button>
        ) : (
          events.length > 0 && (
            <p class="muted" data-testid="ledger-end">
              Start of the ledger.
            </p>
          )
        )}
        {events.length === 0 ? (
          <p class="muted">No ledger rows for this agent yet.</p>
        ) : (
          <ol class="ledger" data-testid="ledger">
            {events.map((event) => (
              <li key={event.seq} data-seq={event.seq}>
                <span class="seq">#{event.seq}</span>{' '}
                <span class={`badge relevance-${(event.relevance ?? 'none').toLowerCase()}`}>
                  {event.relevance ? words(event.relevance) : 'no relevance'}
                </span>{' '}
                <span class="badge">{words(event.eventKind)}</span>{' '}
                {event.material && <span class="badge material">material</span>}{' '}
                {event.boundary.redactionCount > 0 && (
                  <span class="badge redacted" title="Parts of this row were redacted on write">
                    redacted ×{event.boundary.redactionCount}
                  </span>
                )}{' '}
                <span class="summary">{event.summary}</span>{' '}
                {event.todoId && <a href={href.todo(props.goalId, event.todoId)}>{event.todoId}</a>}{' '}
                <time class="muted" dateTime={event.recordedAt}>
                  {ago(event.recordedAt, now)}
                </time>
              </li>
            ))}
          </ol>
        )}
      </Section>
      <Section title="Frontier of the other agents (compressed)" id="frontier-others-title">
        {first.otherAgentFrontier.length === 0 ? (
          <p class="muted">No other agents in this view.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Top todo</th>
                <th scope="col">Handoff</th>
                <th scope="col">Latest material</th>
                <th scope="col">Vision</th>
              </tr>
            </thead>
            <tbody>
              {first.otherAgentFrontier.map((row) => (
                <tr key={row.agentId}>
                  <th scope="row">
                    <a href={href.agent(props.goalId, row.agentId)}>{row.agentId}</a>
                  </th>
                  <td>
                    {row.topTodoId ? (
                      <a href={href.todo(props.goalId, row.topTodoId)}>{row.topTodo}</a>
                    ) : (
                      (row.topTodo ?? '—')
                    )}
                  </td>
                  <td>{row.handoffState ? words(row.handoffState) : '—'}</td>
                  <td>{ago(row.latestMaterialAt, now)}</td>
                  <td>{row.visionSummary ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {first.omittedFrontierRowCount > 0 && (
          <p class="truncated">{first.omittedFrontierRowCount} more agents not shown.</p>
        )}
      </Section>
    </>
  );
}

/** The latest bounded observation, which is advisory: it is never evidence. */
function ObservationView(props: { goalId: string; agentId: string; pulse: number }) {
  const { client } = useConnection();
  const { data, error, reload } = useLoad(
    () =>
      client.request(ObserveDocument, {
        goalId: props.goalId,
        agentId: props.agentId,
        source: 'RECENT',
        lines: 40,
      }),
    [client, props.goalId, props.agentId, props.pulse],
  );
  const observation = data?.observe;
  return (
    <Section title="Latest observation (advisory)" id="observation-title">
      {error && <ErrorNotice error={error} />}
      {!observation ? (
        !error && <Loading what="the observation" />
      ) : observation.__typename === 'Observation' ? (
        <>
          <p class="notice advisory">
            Advisory: a bounded excerpt ({observation.lines.length} of at most{' '}
            {observation.lineBound} lines) from {observation.provider}, captured{' '}
            {observation.capturedAt}. It is not evidence; the work graph and ledger are.
            {observation.limits.length > 0 &&
              ` Limits: ${observation.limits.map(words).join(', ')}.`}
          </p>
          <pre class="observation">{observation.lines.join('\n')}</pre>
        </>
      ) : observation.__typename === 'ObservationGap' ? (
        <p class="muted">No observation: {words(observation.reason)}.</p>
      ) : observation.__typename === 'ScopeGap' ? (
        <ScopeGapNotice
          gap={{ goalId: observation.goalId, reason: observation.scopeGapReason }}
          what="observations"
        />
      ) : (
        <p class="muted">Unknown agent.</p>
      )}
      <button type="button" onClick={reload}>
        Observe again
      </button>
    </Section>
  );
}
