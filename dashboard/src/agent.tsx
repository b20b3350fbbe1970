import { useEffect, useState } from 'preact/hooks';
import {
  EvidenceLedgerDocument,
  type EvidenceLedgerQuery,
  ObserveDocument,
} from '../../src/client/index.ts';
import { ErrorNotice, Loading, ScopeGapNotice, Section } from './common.tsx';
import { ago, href, words } from './format.ts';
import { useConnection, useLoad, useNow } from './hooks.ts';

type Ledger = EvidenceLedgerQuery['evidenceLedger'];
type LedgerEvent = Ledger['events'][number];

export const LEDGER_PAGE = 20;

export function AgentPage(props: { goalId: string; agentId: string }) {
  return (
    <>
      <h2 class="page-title">
        Agent <code>{props.agentId}</code>
      </h2>
      <LedgerView {...props} />
      <ObservationView {...props} />
    </>
  );
}

/** The agent's evidence ledger, newest first, one page at a time (older pages appended). */
function LedgerView(props: { goalId: string; agentId: string }) {
  const { client } = useConnection();
  const now = useNow(5000);
  const [first, setFirst] = useState<Ledger>();
  const [older, setOlder] = useState<LedgerEvent[]>([]);
  const [cursor, setCursor] = useState<{ hasOlder: boolean; olderCursor: string | null }>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    setFirst(undefined);
    setOlder([]);
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
  const events = [...older, ...first.events];
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
function ObservationView(props: { goalId: string; agentId: string }) {
  const { client } = useConnection();
  const { data, error, reload } = useLoad(
    () =>
      client.request(ObserveDocument, {
        goalId: props.goalId,
        agentId: props.agentId,
        source: 'RECENT',
        lines: 40,
      }),
    [client, props.goalId, props.agentId],
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
