import { useMemo, useState } from 'preact/hooks';
import {
  AgentsDocument,
  FrontierDocument,
  GatesDocument,
  TodosDocument,
  TodoTransitionsDocument,
  WhoamiDocument,
} from '../../src/client/index.ts';
import { ErrorNotice, Loading, ScopeGapNotice, Section } from './common.tsx';
import { href, words } from './format.ts';
import { layoutTodoGraph } from './graph.ts';
import { useConnection, useLoad } from './hooks.ts';

export function WorkPage(props: { goalId: string }) {
  const { client } = useConnection();
  const { goalId } = props;
  const work = useLoad(
    () =>
      Promise.all([
        client.request(TodosDocument, { goalId, limit: 500 }),
        client.request(GatesDocument, { goalId }),
      ]),
    [client, goalId],
  );
  if (!work.data)
    return work.error ? <ErrorNotice error={work.error} /> : <Loading what="the work graph" />;
  const [{ todos }, { gates }] = work.data;
  if (todos.scopeGap) return <ScopeGapNotice gap={todos.scopeGap} what="the work graph" />;
  return (
    <>
      <FrontierView goalId={goalId} />
      <Section title="Todo graph" id="graph-title">
        <TodoGraph goalId={goalId} todos={todos.rows} gates={gates.rows} />
        {todos.omittedRowCount > 0 && (
          <p class="truncated">{todos.omittedRowCount} more todos not drawn (truncated).</p>
        )}
      </Section>
    </>
  );
}

/** An agent's frontier (the gateway computes it per agent): each todo with its guards. */
function FrontierView(props: { goalId: string }) {
  const { client } = useConnection();
  const { goalId } = props;
  const me = useLoad(() => client.request(WhoamiDocument), [client]);
  const agents = useLoad(() => client.request(AgentsDocument, { goalId }), [client, goalId]);
  const [chosen, setChosen] = useState<string>();
  const agentIds = agents.data?.agents.rows.map((row) => row.agentId) ?? [];
  const agentId = chosen ?? me.data?.me?.agentId ?? agentIds[0];
  const loaded = useLoad(
    () =>
      agentId ? client.request(FrontierDocument, { goalId, agentId }) : Promise.resolve(undefined),
    [client, goalId, agentId],
  );
  const frontier = loaded.data?.frontier;
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
              {frontier.rows.map((row) => (
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

export function TodoPage(props: { goalId: string; todoId: string }) {
  const { client } = useConnection();
  const { goalId, todoId } = props;
  const loaded = useLoad(
    () =>
      Promise.all([
        client.request(TodosDocument, { goalId, limit: 1000 }),
        client.request(TodoTransitionsDocument, { goalId, todoId }),
      ]),
    [client, goalId, todoId],
  );
  if (!loaded.data)
    return loaded.error ? <ErrorNotice error={loaded.error} /> : <Loading what="the todo" />;
  const [{ todos }, { todoTransitions }] = loaded.data;
  if (todos.scopeGap) return <ScopeGapNotice gap={todos.scopeGap} what="todos" />;
  const todo = todos.rows.find((row) => row.id === todoId);
  if (!todo)
    return (
      <p>
        No todo <code>{todoId}</code> in this goal.
      </p>
    );
  const fields: [string, unknown][] = [
    ['Status', words(todo.status)],
    ['Task class', words(todo.taskClass)],
    ['Priority', todo.priority],
    ['Claimed by', todo.claim ? `${todo.claim.agentId} (${todo.claim.claimedAt})` : '—'],
    ['Lease', todo.lease ? `${words(todo.lease.state)} · holder ${todo.lease.holder}` : '—'],
    ['Depends on', todo.dependsOn.join(', ') || '—'],
    ['Decision scopes', todo.requiredDecisionScopes.join(', ') || '—'],
    ['Capability', todo.requiredCapability ?? '—'],
    ['Successor of', todo.successorOf ?? '—'],
    ['Superseded by', todo.supersededBy ?? '—'],
    ['Evidence', todo.evidenceRefs.join(', ') || '—'],
  ];
  return (
    <>
      <h2 class="page-title">
        Todo <code>{todo.id}</code>: {todo.title}
      </h2>
      <dl class="fields">
        {fields.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{String(value)}</dd>
          </div>
        ))}
      </dl>
      <Section title="Transitions" id="transitions-title">
        <ol>
          {todoTransitions.rows.map((row) => (
            <li key={row.seq}>
              #{row.seq} {words(row.kind)}: {row.fromStatus ? words(row.fromStatus) : '∅'} →{' '}
              {row.toStatus ? words(row.toStatus) : '∅'}{' '}
              {row.detail && <span class="muted">{row.detail}</span>}
            </li>
          ))}
        </ol>
      </Section>
    </>
  );
}
