import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphiQLOptions } from 'graphql-yoga';
import { type Encoded, encode, sendEncoded } from './encoded.ts';

/** The first lines of every example tab: what a first-time visitor needs to run anything. */
export const GRAPHIQL_HINT = `# Paste a token into Headers, below:
#   {"Authorization": "Bearer <token>"}
# The operator's: cat .switchboard/admin-token
# npm run demo seeds the goal "demo".`;

/**
 * The example tabs: the directory, a pinned wait (a subscription: its first event is the wait
 * PENDING with its pin), and the evidence ledger, all on the demo goal of `npm run demo`.
 */
export const GRAPHIQL_TABS = [
  {
    query: `${GRAPHIQL_HINT}
query Directory {
  me { kind goalIds }
  directory(goalId: "demo") {
    registeredAgentCount
    omittedRowCount
    limitations
    scopeGap { reason }
    rows {
      agentId
      agentModel
      work { todoId claimed lease }
      presence { liveness observedAt stale coverageGap }
    }
    rollup { reason agentId todoId }
  }
}
`,
  },
  {
    query: `${GRAPHIQL_HINT}
# Emits the wait PENDING with its pin, then exactly one outcome, then completes.
subscription WaitForAgent {
  waitForAgent(
    input: { goalId: "demo", agentId: "builder", accept: [IDLE, DONE], timeoutMs: 60000 }
  ) {
    __typename
    ... on Wait {
      id
      status
      reason
      baselineSeq
      pin { agentId providerSessionRef occupantRef }
      resolution { liveness seq }
    }
    ... on ScopeGap { goalId gap: reason }
    ... on UnknownAgent { agentId }
  }
}
`,
  },
  {
    query: `${GRAPHIQL_HINT}
query Ledger {
  evidenceLedger(goalId: "demo", agentId: "builder", limit: 10) {
    digest
    scopeGap { reason }
    events { seq eventKind todoId summary recordedAt }
    page { headSeq hasOlder }
    otherAgentFrontier { agentId topTodo handoffState }
  }
}
`,
  },
] as const;

/** The CSRF header Yoga requires of requests a browser could send cross-site (server.ts). */
export const CSRF_HEADER = 'x-graphql-yoga-csrf';

/** A one-line SVG instead of the bundle's 150 KB base64 PNG favicon. */
const FAVICON =
  "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><circle cx='8' cy='8' r='7' fill='%23e10098'/></svg>";

/**
 * GraphiQL's options. Every request it sends, the SSE request of a subscription included,
 * carries the CSRF header; the page loads nothing from the network but the gateway.
 */
export const graphiqlOptions: GraphiQLOptions & { favicon: string } = {
  title: 'Switchboard',
  favicon: FAVICON,
  defaultQuery: GRAPHIQL_TABS[0].query,
  defaultTabs: GRAPHIQL_TABS.map((tab) => ({ ...tab })),
  additionalHeaders: { [CSRF_HEADER]: '1' },
  shouldPersistHeaders: false,
};

let page: Promise<Encoded> | null = null;

/**
 * The GraphiQL page with its JavaScript, CSS and editor workers inlined (about 9 MB; 1.8 MB as
 * Brotli, 2.4 MB as gzip), rendered and compressed once, on the first visit, not at start-up.
 */
function graphiqlPage(): Promise<Encoded> {
  page ??= import('@graphql-yoga/render-graphiql').then((bundle) =>
    encode(Buffer.from(bundle.renderGraphiQL(graphiqlOptions))),
  );
  return page;
}

/**
 * Answers a browser's GET (or HEAD) of the GraphQL path that asks for HTML with GraphiQL,
 * compressed as the browser accepts; returns false for any other request (GraphQL itself).
 */
export async function serveGraphiQL(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (!req.headers.accept?.includes('text/html')) return false;
  sendEncoded(
    req,
    res,
    {
      'content-type': 'text/html; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    },
    await graphiqlPage(),
  );
  return true;
}
