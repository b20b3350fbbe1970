import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  DirectoryDocument,
  type DirectoryQuery,
  directoryPresenceSeq,
  presenceChanges,
} from '../../src/client/index.ts';
import { DecideGate, DecideUserGate, TakeBackClaim } from './actions.tsx';
import { ErrorNotice, Loading, Pill, ScopeGapNotice, Section, TodoLink, When } from './common.tsx';
import { BASIS_WORDS, COVERAGE_GAP_WORDS, href, REASON_WORDS, words } from './format.ts';
import { HealthPanel } from './health.tsx';
import { type Names, useConnection, useGoalWork, useNames, useNow } from './hooks.ts';

type Packet = DirectoryQuery['directory'];
type Row = Packet['rows'][number];
type AttentionRow = Packet['rollup'][number];

/**
 * The directory packet of a goal, kept live: the gateway's presence stream (graphql-ws,
 * resumed by seq after a drop) patches rows as changes arrive, and a settled burst of changes
 * re-reads the packet so the rollup's annotations and the work columns follow; so does each
 * change of the goal's work (`workPulse`). No polling.
 */
function useLiveDirectory(goalId: string, workPulse: number) {
  const connection = useConnection();
  const [packet, setPacket] = useState<Packet>();
  const [error, setError] = useState<string>();
  const refresh = useRef<() => void>(() => {});

  useEffect(() => {
    const abort = new AbortController();
    const stream = connection.stream(abort.signal, 'presence');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () =>
      connection.client.request(DirectoryDocument, { goalId, limit: 1000 }).then(
        (data) => {
          if (abort.signal.aborted) return;
          setPacket(data.directory);
          setError(undefined);
          return data.directory;
        },
        (failure: Error) => {
          if (!abort.signal.aborted) setError(failure.message);
        },
      );
    refresh.current = () => {
      clearTimeout(timer);
      timer = setTimeout(read, 250);
    };
    void (async () => {
      // Changes are followed from the first read's seq, so none made after it is missed:
      // not before the stream subscribes, nor while it reconnects to a restarted gateway.
      const first = await read();
      if (!first) return stream.fail('the directory could not be read');
      if (first.scopeGap) return stream.complete('this token does not cover the goal');
      try {
        for await (const change of presenceChanges(
          stream,
          goalId,
          undefined,
          directoryPresenceSeq(first),
        )) {
          if (change.scopeGap) return stream.complete('this token does not cover the goal');
          setPacket(
            (current) =>
              current && {
                ...current,
                rows: current.rows.map((row) =>
                  row.agentId === change.agentId
                    ? { ...row, presence: change.presence ?? null }
                    : row,
                ),
              },
          );
          refresh.current();
        }
      } catch (failure) {
        if (!abort.signal.aborted) stream.fail((failure as Error).message);
      }
    })();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [connection, goalId]);
  // The first work pulse is the ledger's cursor read, not a change.
  useEffect(() => {
    if (workPulse > 1) refresh.current();
  }, [workPulse]);
  return { packet, error };
}

/** A goal: delivery health (for an operator), attention, providers, the directory. */
export function Overview(props: { goalId: string; operator: boolean }) {
  const { pulse } = useGoalWork(props.goalId);
  const { packet, error } = useLiveDirectory(props.goalId, pulse);
  // The titles of the todos on this page only: the rollup's and the claimed ones.
  const names = useNames(
    props.goalId,
    [
      ...(packet?.rollup.map((row) => row.todoId) ?? []),
      ...(packet?.rows.map((row) => row.work.todoId) ?? []),
    ],
    pulse,
    true,
  );
  if (!packet) return error ? <ErrorNotice error={error} /> : <Loading what="the directory" />;
  return (
    <>
      {error && <ErrorNotice error={error} />}
      {packet.scopeGap ? (
        <ScopeGapNotice gap={packet.scopeGap} what="the directory and attention rollup" />
      ) : (
        <>
          {props.operator && (
            <HealthPanel
              goalId={props.goalId}
              directoryAt={packet.collectedAt}
              rollup={packet.rollup}
              providers={new Set(packet.rows.flatMap((row) => row.presence?.provider ?? [])).size}
            />
          )}
          <Attention goalId={props.goalId} rows={packet.rollup} names={names} />
          <Providers packet={packet} />
          <Directory packet={packet} names={names} />
        </>
      )}
    </>
  );
}

export function Attention(props: {
  goalId: string;
  rows: readonly AttentionRow[];
  names: Names | undefined;
}) {
  const now = useNow();
  return (
    <Section title="Needs attention" id="attention-title">
      {props.rows.length === 0 ? (
        <p class="muted">Nothing needs a decision.</p>
      ) : (
        <ol class="attention" data-testid="attention">
          {props.rows.map((row) => (
            <li
              key={`${row.reason}:${row.agentId}:${row.todoId}:${row.gateId}:${row.deliveryId}:${row.provider}`}
              data-reason={row.reason}
              class={`reason-${row.reason.toLowerCase()}`}
            >
              <strong>{REASON_WORDS[row.reason] ?? words(row.reason)}</strong>
              {row.provider && (
                <>
                  {' '}
                  <code>{row.provider}</code>
                  {row.coverageGap && <> ({COVERAGE_GAP_WORDS[row.coverageGap]})</>}, covering{' '}
                  {row.agentIds.map((agentId, i) => (
                    <span key={agentId}>
                      {i > 0 && ', '}
                      <a href={href.agent(props.goalId, agentId)}>{agentId}</a>
                    </span>
                  ))}
                </>
              )}
              {row.agentId && (
                <>
                  {' '}
                  agent <a href={href.agent(props.goalId, row.agentId)}>{row.agentId}</a>
                </>
              )}
              {row.todoId && (
                <>
                  {' '}
                  todo <TodoLink goalId={props.goalId} todoId={row.todoId} names={props.names} />
                </>
              )}
              {row.gateId && (
                <>
                  {' '}
                  gate <GateName gateId={row.gateId} names={props.names} />
                </>
              )}
              {row.deliveryId && (
                <>
                  {' '}
                  delivery{' '}
                  <a href={href.delivery(props.goalId, row.deliveryId)}>{row.deliveryId}</a>
                </>
              )}
              {row.since && (
                <span class="muted">
                  {' '}
                  <When at={row.since} now={now} prefix="since " />
                </span>
              )}
              {row.reason === 'BLOCKED_ON_GATE' && row.gateId && row.todoId && (
                <DecideGate
                  goalId={props.goalId}
                  gateId={row.gateId}
                  gate={gateWords(row.gateId, props.names)}
                  todo={todoWords(row.todoId, props.names)}
                />
              )}
              {row.reason === 'WAITING_ON_OWNER' &&
                row.todoId &&
                props.names?.todos.get(row.todoId)?.taskClass === 'USER_GATE' && (
                  <DecideUserGate
                    goalId={props.goalId}
                    todoId={row.todoId}
                    todo={todoWords(row.todoId, props.names)}
                  />
                )}
              {row.reason === 'STALE_CLAIM' && row.agentId && row.todoId && (
                <TakeBackClaim
                  goalId={props.goalId}
                  todoId={row.todoId}
                  agentId={row.agentId}
                  todo={todoWords(row.todoId, props.names)}
                />
              )}
              {row.liveness && (
                <span class="annotation" title="Presence is an annotation: it never ranks a row">
                  {' '}
                  presence: <Pill value={row.liveness} />
                  {row.blockedKind && <> waits for {words(row.blockedKind)}</>}
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

function presenceNotes(row: Row): string[] {
  const notes: string[] = [];
  const p = row.presence;
  if (!row.registered) notes.push('not registered');
  if (!p) notes.push('no provider has reported this agent');
  else {
    if (p.coverageGap)
      notes.push(`unknown: ${COVERAGE_GAP_WORDS[p.coverageGap] ?? words(p.coverageGap)}`);
    if (p.endedAt) notes.push('session ended');
    if (p.blockedKind) notes.push(`waits for ${words(p.blockedKind)}`);
    if (p.explain) notes.push(p.explain);
    if (p.reportedLiveness && p.reportedLiveness !== p.liveness)
      notes.push(`reported ${words(p.reportedLiveness)}`);
  }
  return notes;
}

/** A todo in a sentence: “its title” (its id). */
export const todoWords = (todoId: string, names: Names | undefined) => {
  const title = names?.todos.get(todoId)?.title;
  return title ? `“${title}” (${todoId})` : todoId;
};

/** A gate in a sentence: “its reason” on its scope (its id). */
const gateWords = (gateId: string, names: Names | undefined) => {
  const gate = names?.gates.get(gateId);
  return gate ? `“${gate.reason}” on ${gate.scope} (${gateId})` : gateId;
};

/** A gate by its reason, its id beside it. */
function GateName(props: { gateId: string; names: Names | undefined }) {
  const gate = props.names?.gates.get(props.gateId);
  return (
    <span data-gate={props.gateId}>
      {gate ? `“${gate.reason}” (${gate.scope})` : ''}
      <span class="id"> {props.gateId}</span>
    </span>
  );
}

/**
 * The providers reporting in this goal, each with the limits it declared once: what its
 * observations cannot show (its contract), not events that happened to an agent.
 */
function Providers(props: { packet: Packet }) {
  const providers = new Map<string, { agents: number; limits: Set<string> }>();
  for (const row of props.packet.rows) {
    const provider = row.presence?.provider;
    if (!provider) continue;
    const entry = providers.get(provider) ?? { agents: 0, limits: new Set<string>() };
    entry.agents++;
    for (const limit of row.observationLimits) entry.limits.add(limit);
    providers.set(provider, entry);
  }
  if (providers.size === 0) return null;
  return (
    <Section title="Providers" id="providers-title">
      <ul class="providers" data-testid="providers">
        {[...providers].map(([provider, entry]) => (
          <li key={provider} data-provider={provider}>
            <code>{provider}</code> reports {entry.agents} {entry.agents === 1 ? 'agent' : 'agents'}
            {entry.limits.size > 0 && (
              <span class="muted">
                {' '}
                · declared limits of its observations: {[...entry.limits].map(words).join('; ')}
              </span>
            )}
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** Rows of the directory shown at once; the rest are a page away. */
export const DIRECTORY_PAGE = 100;

/** Liveness in the order an operator looks for trouble: blocked and unknown first. */
const LIVENESS_ORDER = [
  'BLOCKED',
  'UNREACHABLE',
  'UNKNOWN',
  'NO_PRESENCE',
  'WORKING',
  'IDLE',
  'DONE',
];

type SortKey = 'agent' | 'model' | 'surface' | 'host' | 'liveness' | 'observed' | 'todo';
const SORTS: Record<
  SortKey,
  { label: string; value: (row: Row, todoTitle: (row: Row) => string) => string | number }
> = {
  agent: { label: 'Agent', value: (row) => row.agentId },
  model: { label: 'Model', value: (row) => row.agentModel },
  surface: { label: 'Surface', value: (row) => row.hostSurface },
  host: { label: 'Host', value: (row) => row.presence?.host ?? '' },
  liveness: {
    label: 'Liveness',
    value: (row) => {
      const at = LIVENESS_ORDER.indexOf(livenessOf(row));
      return at === -1 ? LIVENESS_ORDER.length : at;
    },
  },
  observed: {
    label: 'Observed',
    value: (row) => (row.presence ? -Date.parse(row.presence.observedAt) : 0),
  },
  todo: { label: 'Claimed todo', value: (row, todoTitle) => todoTitle(row) || '\uffff' },
};

const compare = (a: string | number, b: string | number) =>
  typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));

/** The liveness of a row as the filter and the counts name it. */
const livenessOf = (row: Row) => row.presence?.liveness ?? 'NO_PRESENCE';

/**
 * The directory table. With many agents (200 on a laptop screen) its column headings stay in
 * view under the page header as the page scrolls, a count per liveness doubles as a filter,
 * and a text filter narrows rows by agent, model, surface, host or todo.
 */
export function Directory(props: { packet: Packet; names: Names | undefined }) {
  const { packet } = props;
  const now = useNow();
  const [text, setText] = useState('');
  const [liveness, setLiveness] = useState<string | null>(null);
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({
    key: 'agent',
    descending: false,
  });
  const [page, setPage] = useState(0);
  const counts = new Map<string, number>();
  for (const row of packet.rows)
    counts.set(livenessOf(row), (counts.get(livenessOf(row)) ?? 0) + 1);
  const needle = text.trim().toLowerCase();
  const rows = useMemo(() => {
    const todoTitle = (row: Row) =>
      (row.work.todoId && props.names?.todos.get(row.work.todoId)?.title) || '';
    const filtered = packet.rows.filter(
      (row) =>
        (liveness === null || livenessOf(row) === liveness) &&
        (needle === '' ||
          [
            row.agentId,
            row.agentModel,
            row.hostSurface,
            row.presence?.host ?? '',
            row.work.todoId ?? '',
            todoTitle(row),
          ].some((v) => v.toLowerCase().includes(needle))),
    );
    const value = SORTS[sort.key].value;
    const sign = sort.descending ? -1 : 1;
    return filtered.sort(
      (a, b) =>
        sign * compare(value(a, todoTitle), value(b, todoTitle)) ||
        a.agentId.localeCompare(b.agentId),
    );
  }, [packet.rows, props.names, liveness, needle, sort]);
  const pages = Math.max(1, Math.ceil(rows.length / DIRECTORY_PAGE));
  const shownPage = Math.min(page, pages - 1);
  const shown = rows.slice(shownPage * DIRECTORY_PAGE, (shownPage + 1) * DIRECTORY_PAGE);
  const heading = (key: SortKey) => (
    <th
      scope="col"
      aria-sort={sort.key === key ? (sort.descending ? 'descending' : 'ascending') : undefined}
    >
      <button
        type="button"
        class="linklike sort"
        data-sort={key}
        onClick={() => {
          setSort((current) => ({
            key,
            descending: current.key === key ? !current.descending : false,
          }));
          setPage(0);
        }}
      >
        {SORTS[key].label}
        {sort.key === key ? (sort.descending ? ' ▼' : ' ▲') : ''}
      </button>
    </th>
  );
  return (
    <Section title={`Directory (${packet.rows.length} agents)`} id="directory-title">
      <div class="directory-tools">
        <label>
          Filter agents{' '}
          <input
            type="search"
            name="agent-filter"
            value={text}
            placeholder="agent, model, surface, host or todo"
            onInput={(event) => {
              setText(event.currentTarget.value);
              setPage(0);
            }}
          />
        </label>
        <fieldset class="liveness-filter">
          <legend class="visually-hidden">Show only one liveness</legend>
          {[...counts].map(([value, count]) => (
            <button
              key={value}
              type="button"
              aria-pressed={liveness === value}
              data-liveness-filter={value}
              onClick={() => {
                setLiveness((current) => (current === value ? null : value));
                setPage(0);
              }}
            >
              <Pill value={value} /> {count}
            </button>
          ))}
        </fieldset>
        {rows.length < packet.rows.length && (
          <output class="muted" data-testid="directory-filtered">
            showing {rows.length} of {packet.rows.length}
          </output>
        )}
      </div>
      <div class="directory-wrap">
        <table class="directory" data-testid="directory">
          <thead>
            <tr>
              {heading('agent')}
              {heading('model')}
              {heading('surface')}
              {heading('host')}
              {heading('liveness')}
              <th scope="col">Basis</th>
              {heading('observed')}
              <th scope="col">Notes</th>
              {heading('todo')}
              <th scope="col">Lease</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.agentId} data-agent={row.agentId}>
                <th scope="row">
                  <a href={href.agent(packet.goalId, row.agentId)}>{row.agentId}</a>
                </th>
                <td>{row.agentModel}</td>
                <td>{row.hostSurface}</td>
                <td>{row.presence?.host ?? <span class="muted">—</span>}</td>
                <td data-liveness={row.presence?.liveness ?? 'NONE'}>
                  <Pill value={row.presence?.liveness} />
                </td>
                <td>
                  {row.presence ? (BASIS_WORDS[row.presence.basis] ?? row.presence.basis) : '—'}
                </td>
                <td>
                  {row.presence ? (
                    <When at={row.presence.observedAt} now={now} prefix="observed " />
                  ) : (
                    '—'
                  )}
                </td>
                <td class="notes">{presenceNotes(row).join('; ')}</td>
                <td>
                  {row.work.todoId ? (
                    <TodoLink goalId={packet.goalId} todoId={row.work.todoId} names={props.names} />
                  ) : (
                    <span class="muted">none</span>
                  )}
                </td>
                <td>{words(row.work.lease)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <nav class="pager" aria-label="Directory pages" data-testid="directory-pager">
          <button type="button" disabled={shownPage === 0} onClick={() => setPage(shownPage - 1)}>
            Previous
          </button>{' '}
          <output>
            rows {shownPage * DIRECTORY_PAGE + 1}–{shownPage * DIRECTORY_PAGE + shown.length} of{' '}
            {rows.length}
          </output>{' '}
          <button
            type="button"
            disabled={shownPage === pages - 1}
            onClick={() => setPage(shownPage + 1)}
          >
            Next
          </button>
        </nav>
      )}
      <p class="muted" data-testid="directory-footer">
        {packet.registeredAgentCount} registered
        {packet.omittedRowCount > 0 && (
          <strong class="truncated"> · {packet.omittedRowCount} more not shown (truncated)</strong>
        )}{' '}
        · collected <When at={packet.collectedAt} now={now} /> · scope {packet.scope} · audience{' '}
        {packet.audience ? words(packet.audience) : 'none'}
      </p>
      {packet.limitations.length > 0 && (
        <details>
          <summary>Limitations ({packet.limitations.length})</summary>
          <ul>
            {packet.limitations.map((limitation) => (
              <li key={limitation}>{words(limitation)}</li>
            ))}
          </ul>
        </details>
      )}
    </Section>
  );
}
