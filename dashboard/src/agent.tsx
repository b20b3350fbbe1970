import { useEffect, useState } from 'preact/hooks';
import {
  DirectoryDocument,
  type DirectoryQuery,
  EvidenceLedgerDocument,
  type EvidenceLedgerQuery,
  ledgerEvents,
  ObserveDocument,
} from '../../src/client/index.ts';
import { RetireAgent, SendMessage } from './actions.tsx';
import { ErrorNotice, Loading, Pill, ScopeGapNotice, Section, TodoLink, When } from './common.tsx';
import { BASIS_WORDS, COVERAGE_GAP_WORDS, href, words } from './format.ts';
import {
  useConnection,
  useGoalWork,
  useLoad,
  useNames,
  useNow,
  usePresencePulse,
} from './hooks.ts';
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
  const presence = usePresencePulse(props.goalId);
  const pulse = presence.pulse;
  const work = useGoalWork(props.goalId);
  // A message sent from this page is re-read at once (a delivery writes no presence change).
  const [sent, setSent] = useState(0);
  return (
    <>
      <h2 class="page-title">
        Agent <code>{props.agentId}</code>
      </h2>
      <AgentSummary
        {...props}
        first={presence.first}
        presencePulse={pulse}
        workPulse={work.pulse}
      />
      <div class="actions" data-testid="agent-actions">
        <SendMessage
          goalId={props.goalId}
          agentId={props.agentId}
          onDone={() => setSent((n) => n + 1)}
        />
        <RetireAgent goalId={props.goalId} agentId={props.agentId} />
      </div>
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
      <WaitsView {...props} pulse={pulse} />
      <DeliveriesView {...props} pulse={pulse + sent} />
      <LedgerView {...props} workPulse={work.pulse} />
      <ObservationView {...props} pulse={pulse} />
    </>
  );
}

/**
 * What the agent is doing, first: its liveness and where that comes from (the provider's
 * `explain`, the basis, when observed), its host and model, and the todo it claims. Its
 * directory row, re-read whenever presence or the goal's work changes.
 */
function AgentSummary(props: {
  goalId: string;
  agentId: string;
  /** The directory the presence cursor was read from: shown until presence or work changes. */
  first: DirectoryQuery['directory'] | undefined;
  presencePulse: number;
  workPulse: number;
}) {
  const { client } = useConnection();
  const now = useNow();
  // Each pulse's first move is its cursor read, not a change.
  const changes = Math.max(0, props.presencePulse - 1) + Math.max(0, props.workPulse - 1);
  const reread = useLoad(
    () =>
      changes > 0
        ? client.request(DirectoryDocument, { goalId: props.goalId, limit: 1000 })
        : Promise.resolve(undefined),
    [client, props.goalId, changes],
  );
  const directory = reread.data?.directory ?? props.first;
  const error = reread.error;
  const row = directory?.rows.find((r) => r.agentId === props.agentId);
  const names = useNames(props.goalId, [row?.work.todoId], props.workPulse);
  if (!directory) return error ? <ErrorNotice error={error} /> : <Loading what="the agent" />;
  if (directory.scopeGap) return null;
  if (!row) return <p class="muted">Not in this goal’s directory.</p>;
  const p = row.presence;
  return (
    <dl class="fields agent-summary" data-testid="agent-summary">
      <div>
        <dt>Liveness</dt>
        <dd data-liveness={p?.liveness ?? 'NONE'}>
          <Pill value={p?.liveness} />
          {p?.coverageGap && (
            <span class="muted"> {COVERAGE_GAP_WORDS[p.coverageGap] ?? words(p.coverageGap)}</span>
          )}
          {p?.blockedKind && <span class="muted"> waits for {words(p.blockedKind)}</span>}
        </dd>
      </div>
      <div>
        <dt>Source</dt>
        <dd data-testid="agent-source">
          {p ? (
            <>
              {p.explain ?? 'no explanation given'} · {BASIS_WORDS[p.basis] ?? words(p.basis)} via{' '}
              <code>{p.provider}</code>, <When at={p.observedAt} now={now} prefix="observed " />
            </>
          ) : (
            'no provider has reported this agent'
          )}
        </dd>
      </div>
      <div>
        <dt>Host</dt>
        <dd data-testid="agent-host">
          {p?.host ?? <span class="muted">{p ? 'not declared by its provider' : 'not seen'}</span>}
        </dd>
      </div>
      <div>
        <dt>Surface</dt>
        <dd>{row.hostSurface}</dd>
      </div>
      <div>
        <dt>Model</dt>
        <dd>{row.agentModel}</dd>
      </div>
      <div>
        <dt>Claimed todo</dt>
        <dd data-testid="agent-claim">
          {row.work.todoId ? (
            <>
              <TodoLink goalId={props.goalId} todoId={row.work.todoId} names={names} />{' '}
              <span class="muted">lease {words(row.work.lease)}</span>
            </>
          ) : (
            <span class="muted">none</span>
          )}
        </dd>
      </div>
    </dl>
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
function LedgerView(props: { goalId: string; agentId: string; workPulse: number }) {
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
    const stream = connection.stream(abort.signal, 'ledger');
    void (async () => {
      try {
        for await (const item of ledgerEvents(stream, props.goalId, props.agentId, headSeq)) {
          if (item.__typename !== 'LedgerEvent')
            return stream.complete('this token does not cover this ledger');
          setLive((rows) => (rows.some((r) => r.seq === item.seq) ? rows : [...rows, item]));
        }
      } catch (failure) {
        if (!abort.signal.aborted) stream.fail(`ledger: ${(failure as Error).message}`);
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

  // The titles of the todos the shown rows name.
  const names = useNames(
    props.goalId,
    [...older, ...(first?.events ?? []), ...live].map((event) => event.todoId),
    props.workPulse,
  );
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
                {event.todoId && (
                  <TodoLink goalId={props.goalId} todoId={event.todoId} names={names} />
                )}{' '}
                <span class="muted">
                  <When at={event.recordedAt} now={now} />
                </span>
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
                  <td>
                    <When at={row.latestMaterialAt} now={now} />
                  </td>
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
            <When at={observation.capturedAt} now={Date.now()} />. It is not evidence; the work
            graph and ledger are.
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
