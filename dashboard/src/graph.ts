/**
 * The todo graph as positioned boxes and edges (dagre), for the SVG in work.tsx. Edges:
 * a todo depends on another, a gate holds a todo (its decision scope is one the todo needs),
 * a successor continues a todo, a todo supersedes another.
 */
import { Graph, layout } from '@dagrejs/dagre';

export interface GraphTodo {
  id: string;
  title: string;
  status: string;
  dependsOn: readonly string[];
  requiredDecisionScopes: readonly string[];
  successorOf?: string | null;
  supersededBy?: string | null;
  claim?: { agentId: string } | null;
}
export interface GraphGate {
  id: string;
  scope: string;
  state: string;
}

export type EdgeKind = 'depends' | 'gate' | 'successor' | 'supersede';
export interface LaidNode {
  id: string;
  kind: 'todo' | 'gate';
  label: string;
  detail: string;
  status: string;
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface LaidEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  points: { x: number; y: number }[];
}
export interface Layout {
  nodes: LaidNode[];
  edges: LaidEdge[];
  width: number;
  height: number;
}

const WIDTH = 180;
const HEIGHT = 48;

export function layoutTodoGraph(todos: readonly GraphTodo[], gates: readonly GraphGate[]): Layout {
  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 16, ranksep: 48, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  const known = new Set(todos.map((t) => t.id));
  const nodes = new Map<string, Omit<LaidNode, 'x' | 'y'>>();
  for (const todo of todos) {
    nodes.set(todo.id, {
      id: todo.id,
      kind: 'todo',
      label: todo.title,
      detail: todo.claim
        ? `${todo.status.toLowerCase()} · @${todo.claim.agentId}`
        : todo.status.toLowerCase(),
      status: todo.status,
      width: WIDTH,
      height: HEIGHT,
    });
  }
  const openGates = gates.filter((gate) => gate.state === 'OPEN');
  for (const gate of openGates) {
    nodes.set(`gate:${gate.id}`, {
      id: `gate:${gate.id}`,
      kind: 'gate',
      label: gate.scope,
      detail: `gate · ${gate.state.toLowerCase()}`,
      status: gate.state,
      width: WIDTH,
      height: HEIGHT,
    });
  }
  for (const node of nodes.values()) g.setNode(node.id, { width: node.width, height: node.height });

  const edges: Omit<LaidEdge, 'points'>[] = [];
  for (const todo of todos) {
    for (const dep of todo.dependsOn)
      if (known.has(dep)) edges.push({ from: dep, to: todo.id, kind: 'depends' });
    for (const gate of openGates)
      if (todo.requiredDecisionScopes.includes(gate.scope))
        edges.push({ from: `gate:${gate.id}`, to: todo.id, kind: 'gate' });
    if (todo.successorOf && known.has(todo.successorOf))
      edges.push({ from: todo.successorOf, to: todo.id, kind: 'successor' });
    if (todo.supersededBy && known.has(todo.supersededBy))
      edges.push({ from: todo.id, to: todo.supersededBy, kind: 'supersede' });
  }
  edges.forEach((edge, i) => {
    g.setEdge(edge.from, edge.to, {}, String(i));
  });
  layout(g);

  const laidNodes: LaidNode[] = [...nodes.values()].map((node) => {
    const { x, y } = g.node(node.id);
    return { ...node, x: x - node.width / 2, y: y - node.height / 2 };
  });
  const laidEdges: LaidEdge[] = edges.map((edge, i) => ({
    ...edge,
    points: g.edge(edge.from, edge.to, String(i))?.points ?? [],
  }));
  const graph = g.graph();
  return {
    nodes: laidNodes,
    edges: laidEdges,
    width: graph.width ?? 0,
    height: graph.height ?? 0,
  };
}
