/**
 * The import rules of docs/architecture.md, checked on the source as text: no import cycles
 * (type imports included), a lower layer that imports no domain, services that know nothing of
 * GraphQL, and clients that import no server module.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

function sourceFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every specifier a file imports or re-exports: static, type-only, side-effect and dynamic. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]/gms,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) found.push(match[1] as string);
  }
  return found;
}

interface Edge {
  readonly from: string;
  /** A repository-relative path for relative imports, else the package name. */
  readonly to: string;
  readonly relative: boolean;
}

const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');

function edgesOf(files: readonly string[]): Edge[] {
  return files.flatMap((file) =>
    specifiers(file).map((spec) =>
      spec.startsWith('.')
        ? { from: rel(file), to: rel(path.resolve(path.dirname(file), spec)), relative: true }
        : { from: rel(file), to: spec, relative: false },
    ),
  );
}

/** The first cycle found by depth-first search, as a path that starts and ends on one file. */
function findCycle(edges: readonly Edge[]): string[] | null {
  const next = new Map<string, string[]>();
  for (const e of edges) if (e.relative) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...stack.slice(stack.indexOf(file)), file];
    state.set(file, 'open');
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      const cycle = visit(to);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of next.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

const LOWER = /^src\/(core\/|db\/|events\/|config\.ts$|log\.ts$|root\.ts$)/;
const DOMAIN = /^src\/(registry|work|presence|directory|waits|delivery|ledger)\//;
/** Pothos types and fields: a domain's graphql.ts or graphql/ folder, and src/graphql/. */
const SCHEMA = /^src\/(graphql\/|[^/]+\/graphql(\.ts$|\/))/;
/** Programs that reach the gateway only over its API, through the typed client. */
const CLIENT = /^(src\/(client|cli|mcp|providers)\/|dashboard\/)/;
const CLIENT_CORE = /^src\/client\//;

const serverFiles = sourceFiles(path.join(root, 'src')).filter((f) => !CLIENT.test(rel(f)));
const clientFiles = [
  ...['client', 'cli', 'mcp', 'providers'].flatMap((d) => sourceFiles(path.join(root, 'src', d))),
  ...sourceFiles(path.join(root, 'dashboard', 'src')),
];
const serverEdges = edgesOf(serverFiles);
const clientEdges = edgesOf(clientFiles);

const offending = (edges: readonly Edge[], bad: (e: Edge) => boolean) =>
  edges.filter(bad).map((e) => `${e.from} -> ${e.to}`);

describe('architecture', () => {
  it('reads the source it checks', () => {
    expect(serverFiles.length).toBeGreaterThan(30);
    expect(serverEdges.some((e) => e.from === 'src/main.ts' && e.to === 'src/gateway.ts')).toBe(
      true,
    );
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const edges = [
      { from: 'a.ts', to: 'b.ts', relative: true },
      { from: 'b.ts', to: 'c.ts', relative: true },
      { from: 'c.ts', to: 'a.ts', relative: true },
    ];
    expect(findCycle(edges)).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts']);
    expect(findCycle(edges.slice(0, 2))).toBeNull();
  });

  it('has no import cycles, type imports included', () => {
    expect(findCycle([...serverEdges, ...clientEdges])).toBeNull();
  });

  it('keeps the lower layer (core, db, events, config, log, root) free of domains and the schema', () => {
    const bad = offending(
      serverEdges,
      (e) => LOWER.test(e.from) && e.relative && !LOWER.test(e.to),
    );
    expect(bad).toEqual([]);
  });

  it('keeps services free of GraphQL: only schema files import the builder, the context or Pothos', () => {
    const bad = offending(
      serverEdges,
      (e) =>
        (DOMAIN.test(e.from) || LOWER.test(e.from)) &&
        !SCHEMA.test(e.from) &&
        (SCHEMA.test(e.to) || /^(graphql|graphql-yoga|@pothos\/)/.test(e.to)),
    );
    expect(bad).toEqual([]);
  });

  it('lets clients import only the typed client, and the server no client', () => {
    const clientBad = offending(
      clientEdges,
      (e) => e.relative && !CLIENT.test(e.to) && !e.to.startsWith('schema/'),
    );
    // Clients share only the typed client; the CLI, the one binary, also starts the programs
    // built beside it (the tmux provider, the MCP server).
    const folder = (file: string) => file.split('/').slice(0, 2).join('/');
    const crossBad = offending(
      clientEdges,
      (e) =>
        e.relative &&
        CLIENT.test(e.to) &&
        !CLIENT_CORE.test(e.to) &&
        folder(e.to) !== folder(e.from) &&
        !(folder(e.from) === 'src/cli' && /^src\/(providers|mcp)\//.test(e.to)),
    );
    const serverBad = offending(serverEdges, (e) => e.relative && CLIENT.test(e.to));
    expect({ clientBad, crossBad, serverBad }).toEqual({
      clientBad: [],
      crossBad: [],
      serverBad: [],
    });
  });
});
