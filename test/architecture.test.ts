/**
 * The import rules of docs/architecture.md, checked on the source as text: no import cycles
 * (type imports included); the layers (the top, the domains in their order, the schema toolkit,
 * the lower layer), each importing only what sits below it, with a short list of named
 * exceptions; services that know nothing of GraphQL; and clients that import no server module.
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

/**
 * Every specifier a file imports or re-exports: static, type-only, side-effect and dynamic;
 * `typeOnly` for an `import type` or `export type` statement.
 */
function specifiers(file: string): { spec: string; typeOnly: boolean }[] {
  const text = readFileSync(file, 'utf8');
  const found: { spec: string; typeOnly: boolean }[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]/gms,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const typeOnly = /^\s*(?:import|export)\s+type\s/.test(match[0]);
      found.push({ spec: match[1] as string, typeOnly });
    }
  }
  return found;
}

interface Edge {
  readonly from: string;
  /** A repository-relative path for relative imports, else the package name. */
  readonly to: string;
  readonly relative: boolean;
  readonly typeOnly: boolean;
}

const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');

function edgesOf(files: readonly string[]): Edge[] {
  return files.flatMap((file) =>
    specifiers(file).map(({ spec, typeOnly }) =>
      spec.startsWith('.')
        ? {
            from: rel(file),
            to: rel(path.resolve(path.dirname(file), spec)),
            relative: true,
            typeOnly,
          }
        : { from: rel(file), to: spec, relative: false, typeOnly },
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

/** The process, the server and the schema entry: nothing below imports them. */
const TOP =
  /^src\/(main\.ts$|gateway\.ts$|server\.ts$|schema\.ts$|streams\.ts$|retention\.ts$|dashboard-assets\.ts$|http\/)/;
/** The schema toolkit (builder, context, masking, shared types, execution): below the domains. */
const TOOLKIT = /^src\/graphql\//;
const LOWER = /^src\/(core\/|db\/|events\/|config\.ts$|log\.ts$|root\.ts$)/;
const DOMAIN = /^src\/(registry|work|presence|directory|waits|delivery|ledger)\//;
/** Pothos types and fields: a domain's graphql.ts or graphql/ folder, src/graphql/, src/schema.ts. */
const SCHEMA = /^src\/(schema\.ts$|graphql\/|[^/]+\/graphql(\.ts$|\/))/;
/** Programs that reach the gateway only over its API, through the typed client. */
const CLIENT = /^(src\/(client|cli|mcp|providers)\/|dashboard\/)/;
const CLIENT_CORE = /^src\/client\//;

/**
 * The domains, lowest first: each may import those before it (and the schema toolkit and the
 * lower layer), never one after it. The ledger's write path sits below the work graph, whose
 * writes append their rows with it in their own transaction; the ledger's reads, scoped by the
 * work graph, sit above it. A path ending in `/` is a folder; a file belongs to the longest path
 * that names it.
 */
const ORDER: readonly (readonly [room: string, ...paths: string[]])[] = [
  ['registry', 'src/registry/'],
  ['presence', 'src/presence/'],
  ['delivery', 'src/delivery/'],
  ["the ledger's write path", 'src/ledger/append.ts', 'src/ledger/tables.ts'],
  ['work', 'src/work/'],
  ['ledger', 'src/ledger/'],
  ['waits', 'src/waits/'],
  ['directory', 'src/directory/'],
];

/** The imports kept against the order, each with why (docs/architecture.md, "The domain order"). */
const EXCEPTIONS: readonly {
  readonly from: string;
  readonly to: string;
  readonly typeOnly?: true;
  readonly why: string;
}[] = [
  {
    from: 'src/delivery/deliver.ts',
    to: 'src/work/reads.ts',
    why: 'checkTodoInGoal: a delivery may point at a todo of its own goal only',
  },
  {
    from: 'src/work/closure.ts',
    to: 'src/ledger/obligations.ts',
    why: 'a goal stays open while an agent owes a replan checkpoint',
  },
  {
    from: 'src/work/frontier.ts',
    to: 'src/ledger/obligations.ts',
    why: "an agent's frontier names the replan checkpoint it owes",
  },
  {
    from: 'src/work/graphql/closure.ts',
    to: 'src/ledger/graphql/obligations.ts',
    why: 'ReplanObligationKind, the type of a closure reason',
  },
  {
    from: 'src/work/graphql/frontier.ts',
    to: 'src/ledger/graphql/obligations.ts',
    why: "ReplanObligationKind, the type of the frontier's replan notices",
  },
  {
    from: 'src/graphql/context.ts',
    to: 'src/',
    typeOnly: true,
    why: "AppDeps: the process's shared services (keepers, hubs, caches) on every request's context, typed by the domains that define them",
  },
];

const under = (file: string, p: string) => (p.endsWith('/') ? file.startsWith(p) : file === p);

/** The index of a file's room in ORDER, or -1 outside the domains. */
function rankOf(file: string): number {
  let found = -1;
  let longest = 0;
  ORDER.forEach(([, ...paths], rank) => {
    for (const p of paths) {
      if (under(file, p) && p.length > longest) {
        found = rank;
        longest = p.length;
      }
    }
  });
  return found;
}

const excepts = (x: (typeof EXCEPTIONS)[number], e: Edge) =>
  under(e.from, x.from) && under(e.to, x.to) && (!x.typeOnly || e.typeOnly);

const serverFiles = sourceFiles(path.join(root, 'src')).filter((f) => !CLIENT.test(rel(f)));
const clientFiles = [
  ...['client', 'cli', 'mcp', 'providers'].flatMap((d) => sourceFiles(path.join(root, 'src', d))),
  ...sourceFiles(path.join(root, 'dashboard', 'src')),
];
const serverEdges = edgesOf(serverFiles);
const clientEdges = edgesOf(clientFiles);
/** The server's imports of its own files. */
const srcEdges = serverEdges.filter((e) => e.relative && e.to.startsWith('src/'));

/** An import of a domain after the importer's, or of any domain by the toolkit. */
const againstTheOrder = (e: Edge) =>
  (rankOf(e.from) >= 0 && rankOf(e.to) > rankOf(e.from)) ||
  (TOOLKIT.test(e.from) && rankOf(e.to) >= 0);

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
      { from: 'a.ts', to: 'b.ts', relative: true, typeOnly: false },
      { from: 'b.ts', to: 'c.ts', relative: true, typeOnly: false },
      { from: 'c.ts', to: 'a.ts', relative: true, typeOnly: false },
    ];
    expect(findCycle(edges)).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts']);
    expect(findCycle(edges.slice(0, 2))).toBeNull();
  });

  it('has no import cycles, type imports included', () => {
    expect(findCycle([...serverEdges, ...clientEdges])).toBeNull();
  });

  it('places every server file in one layer: the top, a domain, the schema toolkit or the lower layer', () => {
    const layers = (file: string) =>
      [TOP.test(file), rankOf(file) >= 0, TOOLKIT.test(file), LOWER.test(file)].filter(Boolean)
        .length;
    const unplaced = serverFiles.map(rel).filter((file) => layers(file) !== 1);
    expect(unplaced).toEqual([]);
  });

  it('lets nothing below the top (main, gateway, server, schema, streams, http) import it', () => {
    const bad = offending(srcEdges, (e) => !TOP.test(e.from) && TOP.test(e.to));
    expect(bad).toEqual([]);
  });

  it('keeps the domain order: a domain imports only the domains below it, the toolkit none, but for the named exceptions', () => {
    const bad = offending(
      srcEdges,
      (e) => againstTheOrder(e) && !EXCEPTIONS.some((x) => excepts(x, e)),
    );
    expect(bad).toEqual([]);
  });

  it('names no exception that no import needs', () => {
    const used = (x: (typeof EXCEPTIONS)[number]) =>
      srcEdges.some((e) => againstTheOrder(e) && excepts(x, e));
    expect(EXCEPTIONS.filter((x) => !used(x)).map((x) => `${x.from} -> ${x.to}`)).toEqual([]);
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
