import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import {
  AgentsDocument,
  DashboardFrontierDocument,
  GatesDocument,
  TodoPageDocument,
  TodoTransitionsDocument,
  WhoamiDocument,
} from '../../src/client/index.ts';
import { DecideUserGate, ReleaseExpiredLease, TakeBackClaim } from './actions.tsx';
import { ErrorNotice, Loading, ScopeGapNotice, Section, TodoLink, Until, When } from './common.tsx';
import { duration, href, words } from './format.ts';
import { layoutTodoGraph } from './graph.ts';
import { useConnection, useGoalWork, useLoad, useNames, useNow } from './hooks.ts';

/** How many todos the work graph draws at a time (a page of the `todos` order). */
export const GRAPH_PAGE = 100;

/**
 * The work graph, a page of GRAPH_PAGE todos at a time, re-read whenever the goal's work
 * changes (useGoalWork); read once the ledger's cursor is, so no change after it is missed.
 */
export function WorkPage(props: { goalId: string }) {
  const { client } = useConnection();
  const { goalId } = props;
  const { pulse } = useGoalWork(goalId);
  const [offset, setOffset] = useState(0);
  const work = useLoad(
    () =>
      pulse === 0
        ? Promise.resolve(undefined)
        : Promise.all([
            client.request(TodoPageDocument, { goalId, offset, limit: GRAPH_PAGE }),
            client.request(GatesDocument, { goalId }),
          ]),
    [client, goalId, offset, pulse],
  );
  if (!work.data)
    return work.error ? <ErrorNotice error={work.error} /> : <Loading what="the work graph" />;
  const [{ todoPage: todos }, { gates }] = work.data;
  if (todos.scopeGap) return <ScopeGapNotice gap={todos.scopeGap} what="the work graph" />;
  const total = todos.rows.length + todos.omittedRowCount;
  return (
    <>
      <FrontierView goalId={goalId} pulse={pulse} />
      <Section title="Todo graph" id="graph-title">
        {total > GRAPH_PAGE && (
          <p class="pager" data-testid="graph-pager">
            <button
              type="button"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - GRAPH_PAGE))}
            >
              Previous {GRAPH_PAGE}
            </button>{' '}
            Todos {offset + 1}–{offset + todos.rows.length} of {total}, highest priority first
            (edges to todos on other pages are not drawn){' '}
            <button
              type="button"
              disabled={offset + GRAPH_PAGE >= total}
              onClick={() => setOffset(offset + GRAPH_PAGE)}
            >
              Next {GRAPH_PAGE}
            </button>
          </p>
        )}
        <TodoGraph goalId={goalId} todos={todos.rows} gates={gates.rows} />
      </Section>
    </>
  );
}

/** How many frontier rows show before "show all" (the first screen's worth). */
const FRONTIER_SHOWN = 50;

/** An agent's frontier (the gateway computes it per agent): each todo with its guards. */
function FrontierView(props: { goalId: string; pulse: number }) {
  const { client } = useConnection();
  const { goalId } = props;
  const me = useLoad(() => client.request(WhoamiDocument), [client]);
  const agents = useLoad(() => client.request(AgentsDocument, { goalId }), [client, goalId]);
  const [chosen, setChosen] = useState<string>();
  const agentIds = agents.data?.agents.rows.map((row) => row.agentId) ?? [];
  const agentId = chosen ?? me.data?.me?.agentId ?? agentIds[0];
  const loaded = useLoad(
    () =>
      agentId
        ? client.request(DashboardFrontierDocument, { goalId, agentId })
        : Promise.resolve(undefined),
    [client, goalId, agentId, props.pulse],
  );
  const frontier = loaded.data?.frontier;
  const [all, setAll] = useState(false);
  return (
    <Section title="Frontier" id="frontier-title">
      <label>
        As seen by agent{' '}
        <select value={agentId} onChange={(event) => setChosen(event.currentTarget.value)}>
          {agentIds.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
      </label>
      {loaded.error && <ErrorNotice error={loaded.error} />}
      {!agentId ? (
        <p class="muted">No agents registered, so no frontier.</p>
      ) : !frontier ? (
        !loaded.error && <Loading what="the frontier" />
      ) : frontier.__typename === 'ScopeGap' ? (
        <ScopeGapNotice gap={frontier} what="the frontier" />
      ) : frontier.__typename !== 'Frontier' ? (
        <p class="muted">Unknown agent {agentId}.</p>
      ) : (
        <>
          <p class="muted">
            {frontier.runnableCount} runnable now for {frontier.agentId}.
          </p>
          <table data-testid="frontier">
            <thead>
              <tr>
                <th scope="col">Todo</th>
                <th scope="col">Status</th>
                <th scope="col">Priority</th>
                <th scope="col">Claimed by</th>
                <th scope="col">Guards</th>
              </tr>
            </thead>
            <tbody>
              {(all ? frontier.rows : frontier.rows.slice(0, FRONTIER_SHOWN)).map((row) => (
                <tr key={row.todo.id} class={row.runnable ? 'runnable' : 'guarded'}>
                  <th scope="row">
                    <a href={href.todo(goalId, row.todo.id)}>{row.todo.title}</a>
                  </th>
                  <td>{words(row.todo.status)}</td>
                  <td>{row.todo.priority}</td>
                  <td>{row.todo.claimedBy ?? '—'}</td>
                  <td>
                    {row.guards.length === 0
                      ? row.runnable
                        ? 'runnable'
                        : '—'
                      : row.guards.map((guard) => (
                          <span
                            key={`${guard.kind}:${guard.detail}`}
                            class="badge guard"
                            title={guard.detail}
                          >
                            {words(guard.kind)}
                            {guard.scope ? ` ${guard.scope}` : ''}
                            {guard.todoId ? ` ${guard.todoId}` : ''}
                          </span>
                        ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {!all && frontier.rows.length > FRONTIER_SHOWN && (
            <button type="button" onClick={() => setAll(true)}>
              Show all {frontier.rows.length} frontier rows
            </button>
          )}
        </>
      )}
    </Section>
  );
}

type Todos = Parameters<typeof layoutTodoGraph>[0];
type Gates = Parameters<typeof layoutTodoGraph>[1];

const EDGE_WORDS = {
  depends: 'depends on',
  gate: 'gated by',
  successor: 'continues',
  supersede: 'superseded by',
} as const;

function TodoGraph(props: { goalId: string; todos: Todos; gates: Gates }) {
  const graph = useMemo(
    () => layoutTodoGraph(props.todos, props.gates),
    [props.todos, props.gates],
  );
  if (graph.nodes.length === 0) return <p class="muted">No todos yet.</p>;
  return (
    <div class="graph-wrap">
      <svg
        role="img"
        aria-label={`Todo graph: ${graph.nodes.length} nodes, ${graph.edges.length} edges`}
        data-testid="todo-graph"
        viewBox={`0 0 ${graph.width} ${graph.height}`}
        width={graph.width}
        height={graph.height}
      >
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead" />
          </marker>
        </defs>
        {graph.edges.map((edge) => (
          <path
            key={`${edge.kind}:${edge.from}:${edge.to}`}
            class={`edge edge-${edge.kind}`}
            d={edge.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ')}
            marker-end="url(#arrow)"
          >
            <title>
              {edge.to} {EDGE_WORDS[edge.kind]} {edge.from}
            </title>
          </path>
        ))}
        {graph.nodes.map((node) => {
          const box = (
            <>
              <rect x={node.x} y={node.y} width={node.width} height={node.height} rx="6" />
              <text x={node.x + 8} y={node.y + 19} class="node-label">
                {node.label.length > 24 ? `${node.label.slice(0, 23)}…` : node.label}
              </text>
              <text x={node.x + 8} y={node.y + 37} class="node-detail">
                {node.detail}
              </text>
              <title>{`${node.label} (${node.detail})`}</title>
            </>
          );
          return node.kind === 'todo' ? (
            <a
              key={node.id}
              href={href.todo(props.goalId, node.id)}
              class={`node node-todo status-${node.status.toLowerCase()}`}
              data-node={node.id}
            >
              {box}
            </a>
          ) : (
            <g key={node.id} class="node node-gate" data-node={node.id}>
              {box}
            </g>
          );
        })}
      </svg>
      <p class="legend muted">
        Arrows: dependency → dependent (solid), open gate → gated todo (red), todo → successor
        (dashed), superseded → replacement (dotted). Select a todo to open it.
      </p>
    </div>
  );
}

/**
 * One todo: its fields and transitions, re-read whenever the goal's work changes; the todo
 * itself read by its id (never a listing of the goal), once the ledger's cursor is read.
 */
export function TodoPage(props: { goalId: string; todoId: string }) {
  const { client } = useConnection();
  const { goalId, todoId } = props;
  const { pulse } = useGoalWork(goalId);
  const now = useNow();
  const loaded = useLoad(
    () =>
      pulse === 0
        ? Promise.resolve(undefined)
        : Promise.all([
            client.request(TodoPageDocument, { goalId, ids: [todoId], limit: 1 }),
            client.request(TodoTransitionsDocument, { goalId, todoId }),
          ]),
    [client, goalId, todoId, pulse],
  );
  const todo = loaded.data?.[0].todoPage.rows[0];
  const names = useNames(
    goalId,
    todo ? [...todo.dependsOn, todo.successorOf, todo.supersededBy] : [],
    pulse,
  );
  if (!loaded.data)
    return loaded.error ? <ErrorNotice error={loaded.error} /> : <Loading what="the todo" />;
  const [{ todoPage: todos }, { todoTransitions }] = loaded.data;
  if (todos.scopeGap) return <ScopeGapNotice gap={todos.scopeGap} what="todos" />;
  if (!todo)
    return (
      <p>
        No todo <code>{todoId}</code> in this goal.
      </p>
    );
  const todoList = (ids: readonly string[]) =>
    ids.length === 0 ? (
      <span class="muted">none</span>
    ) : (
      ids.map((id, i) => (
        <span key={id}>
          {i > 0 && ', '}
          <TodoLink goalId={goalId} todoId={id} names={names} />
        </span>
      ))
    );
  const none = <span class="muted">none</span>;
  const fields: [string, ComponentChildren][] = [
    [
      'Status',
      <>
        {words(todo.status)}
        {todo.taskClass === 'USER_GATE' &&
          (todo.status === 'OPEN' || todo.status === 'DEFERRED') && (
            <DecideUserGate
              goalId={goalId}
              todoId={todo.id}
              todo={`“${todo.title}” (${todo.id})`}
            />
          )}
      </>,
    ],
    ['Task class', words(todo.taskClass)],
    ['Priority', todo.priority],
    [
      'Claimed by',
      todo.claim ? (
        <>
          <a href={href.agent(goalId, todo.claim.agentId)}>{todo.claim.agentId}</a>,{' '}
          <When at={todo.claim.claimedAt} now={now} />
          <TakeBackClaim
            goalId={goalId}
            todoId={todo.id}
            agentId={todo.claim.agentId}
            todo={`“${todo.title}” (${todo.id})`}
          />
        </>
      ) : (
        none
      ),
    ],
    [
      'Lease',
      todo.lease ? (
        <>
          {words(todo.lease.state)}
          {todo.lease.holder ? `, held by ${todo.lease.holder}` : ', held by nobody'}
          {todo.lease.expiresAt && (
            <>
              , {Date.parse(todo.lease.expiresAt) > now ? 'expires ' : 'expired '}
              {Date.parse(todo.lease.expiresAt) > now ? (
                <Until at={todo.lease.expiresAt} now={now} />
              ) : (
                <When at={todo.lease.expiresAt} now={now} />
              )}
            </>
          )}
          {todo.lease.state === 'EXPIRED' && todo.lease.holder && (
            <ReleaseExpiredLease
              goalId={goalId}
              todoId={todo.id}
              holder={todo.lease.holder}
              fence={todo.lease.fence}
              todo={`“${todo.title}” (${todo.id})`}
            />
          )}
        </>
      ) : (
        none
      ),
    ],
    ['Depends on', todoList(todo.dependsOn)],
    ['Decision scopes', todo.requiredDecisionScopes.join(', ') || none],
    ['Capability', todo.requiredCapability ?? none],
    ['Successor of', todo.successorOf ? todoList([todo.successorOf]) : none],
    ['Superseded by', todo.supersededBy ? todoList([todo.supersededBy]) : none],
    ['Evidence', todo.evidenceRefs.join(', ') || none],
  ];
  return (
    <>
      <h2 class="page-title">
        Todo <code>{todo.id}</code>: {todo.title}
      </h2>
      <dl class="fields" data-testid="todo-fields">
        {fields.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <Section title="Transitions" id="transitions-title">
        <ol data-testid="transitions">
          {todoTransitions.rows.map((row) => (
            <li key={row.seq} data-kind={row.kind}>
              <When at={row.at} now={now} /> · {words(row.kind)}:{' '}
              {row.fromStatus
                ? `${words(row.fromStatus)} → ${row.toStatus ? words(row.toStatus) : 'removed'}`
                : `created ${row.toStatus ? words(row.toStatus) : ''}`}
              {row.actor.agentId && (
                <>
                  {' '}
                  by <a href={href.agent(goalId, row.actor.agentId)}>{row.actor.agentId}</a>
                </>
              )}
              <TransitionDetail detail={row.detail} />
            </li>
          ))}
        </ol>
      </Section>
    </>
  );
}

/** A transition's detail (a JSON object) as "name: value" pairs; nothing for an empty one. */
function TransitionDetail(props: { detail: string }) {
  let entries: [string, unknown][];
  try {
    entries = Object.entries(JSON.parse(props.detail) as Record<string, unknown>);
  } catch {
    entries = [['detail', props.detail]];
  }
  const shown = entries.filter(
    ([, value]) =>
      value !== null &&
      value !== undefined &&
      value !== '' &&
      !(Array.isArray(value) && value.length === 0),
  );
  if (shown.length === 0) return null;
  return (
    <span class="muted">
      {' '}
      (
      {shown
        .map(([name, value]) =>
          // A duration (ttlMs, timeoutMs) in words, never raw milliseconds.
          /Ms$/.test(name) && /^\d+$/.test(String(value))
            ? `${words(name.slice(0, -2).replace(/([a-z])([A-Z])/g, '$1_$2'))}: ${duration(Number(value))}`
            : `${words(name.replace(/([a-z])([A-Z])/g, '$1_$2'))}: ${
                Array.isArray(value)
                  ? value.join(', ')
                  : typeof value === 'object'
                    ? JSON.stringify(value)
                    : String(value)
              }`,
        )
        .join('; ')}
      )
    </span>
  );
}
