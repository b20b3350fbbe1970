/**
 * The resources: the caller's inbox and the goal's directory (with subscriptions), a goal's
 * directory by id and an agent's evidence ledger (templates, whose arguments complete: see
 * completion.ts). Handled here rather than by McpServer so each failure carries the code the
 * specification gives it: an unknown URI is -32002 (resource not found) for resources/read and
 * resources/subscribe alike.
 *
 * Subscribing reads the resource's cursor first and follows the gateway's resumable stream from
 * it (inboxMessages, presenceChanged), so an arrival after the subscribe answer is never missed;
 * each item sends `notifications/resources/updated`.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  DirectoryDocument,
  directoryPresenceSeq,
  EvidenceLedgerDocument,
  InboxDocument,
  inboxArrivals,
  presenceChanges,
} from '../client/index.ts';
import type { McpContext } from './context.ts';
import { invalidParams, resourceNotFound } from './errors.ts';

async function* map<T, U>(items: AsyncIterable<T>, f: (item: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield f(item);
}

export const INBOX_URI = 'switchboard://inbox';
export const DIRECTORY_URI = 'switchboard://directory';
export const GOAL_DIRECTORY = new UriTemplate('switchboard://goals/{goal}/directory');
export const AGENT_LEDGER = new UriTemplate('switchboard://agents/{agent}/ledger');

const JSON_TYPE = 'application/json';

const RESOURCES = [
  {
    uri: INBOX_URI,
    name: 'inbox',
    title: 'Your inbox',
    description:
      'Your unprocessed messages (newest 50) with unread/unprocessed counts. Subscribe to be told when one arrives; reading marks nothing read.',
    mimeType: JSON_TYPE,
  },
  {
    uri: DIRECTORY_URI,
    name: 'directory',
    title: "The goal's directory",
    description:
      "The goal's agents, claimed todos and last reported presence. Subscribe to be told when presence changes. Presence is a report, not proof of progress.",
    mimeType: JSON_TYPE,
  },
];

const TEMPLATES = [
  {
    uriTemplate: GOAL_DIRECTORY.toString(),
    name: 'goal-directory',
    title: "A goal's directory",
    description:
      'The directory of any goal in your scope (`goal` completes to their ids). A goal outside it reads as a scope gap.',
    mimeType: JSON_TYPE,
  },
  {
    uriTemplate: AGENT_LEDGER.toString(),
    name: 'agent-ledger',
    title: "An agent's evidence ledger",
    description:
      "An agent's evidence ledger in your goal (`agent` completes to its agents). A peer reads only its own; another's reads as a scope gap.",
    mimeType: JSON_TYPE,
  },
];

const json = (uri: string, value: unknown) => ({
  contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(value, null, 2) }],
});

async function readInbox(ctx: McpContext) {
  const { inbox } = await ctx.client.request(InboxDocument, {
    goalId: await ctx.goal(),
    unprocessed: true,
    tail: 50,
  });
  return inbox;
}

async function readDirectory(ctx: McpContext, goalId?: string) {
  const { directory } = await ctx.client.request(DirectoryDocument, {
    goalId: goalId ?? (await ctx.goal()),
  });
  return directory;
}

/** The value of a template's one variable in `uri`, or undefined when it does not match. */
function variable(template: UriTemplate, uri: string): string | undefined {
  const value = template.match(uri)?.[template.variableNames[0] as string];
  return typeof value === 'string' && value !== '' ? decodeURIComponent(value) : undefined;
}

/** The resource at `uri`; throws resourceNotFound for a URI that names none. */
async function read(ctx: McpContext, uri: string): Promise<unknown> {
  if (uri === INBOX_URI) return readInbox(ctx);
  if (uri === DIRECTORY_URI) return readDirectory(ctx);
  const goal = variable(GOAL_DIRECTORY, uri);
  if (goal) return readDirectory(ctx, goal);
  const agent = variable(AGENT_LEDGER, uri);
  if (agent) {
    const { evidenceLedger } = await ctx.client.request(EvidenceLedgerDocument, {
      goalId: await ctx.goal(),
      agentId: agent,
      limit: 30,
    });
    return evidenceLedger;
  }
  throw resourceNotFound(uri);
}

/** Registers the resources and the subscribe handlers; returns a function that stops every stream. */
export function registerResources(server: McpServer, ctx: McpContext): () => void {
  const s = server.server;
  s.registerCapabilities({ resources: { subscribe: true } });
  s.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: RESOURCES }));
  s.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: TEMPLATES,
  }));
  s.setRequestHandler(ReadResourceRequestSchema, async ({ params: { uri } }) => {
    let value: unknown;
    try {
      value = await read(ctx, uri);
    } catch (error) {
      if (error instanceof McpError) throw error;
      throw new McpError(ErrorCode.InternalError, ctx.explain(error));
    }
    return json(uri, value);
  });

  const watchers = new Map<string, AbortController>();

  /** Sends an update for each change; an item that is not a change (a scope gap) ends it. */
  const follow = async (
    uri: string,
    items: AsyncIterable<{ changed: boolean; why?: string }>,
    signal: AbortSignal,
  ) => {
    try {
      for await (const item of items) {
        if (signal.aborted) return;
        if (!item.changed) {
          ctx.log(`${uri}: subscription ended: ${item.why}`);
          return;
        }
        await s.sendResourceUpdated({ uri });
      }
    } catch (error) {
      if (!signal.aborted) ctx.log(`${uri}: subscription ended: ${ctx.explain(error)}`);
    } finally {
      if (watchers.get(uri)?.signal === signal) watchers.delete(uri);
    }
  };

  s.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    if (uri !== INBOX_URI && uri !== DIRECTORY_URI) {
      if (variable(GOAL_DIRECTORY, uri) || variable(AGENT_LEDGER, uri))
        throw invalidParams(
          `${uri} has no subscription: subscribe to ${INBOX_URI} or ${DIRECTORY_URI}`,
        );
      throw resourceNotFound(uri);
    }
    if (watchers.has(uri)) return {};
    const controller = new AbortController();
    watchers.set(uri, controller);
    try {
      void follow(uri, await changes(uri, controller.signal), controller.signal);
    } catch (error) {
      watchers.delete(uri);
      throw new McpError(ErrorCode.InternalError, ctx.explain(error));
    }
    return {};
  });

  /** Reads the resource's cursor, then its changes after it. */
  async function changes(uri: string, signal: AbortSignal) {
    const options = ctx.stream(signal);
    const goalId = await ctx.goal();
    if (uri === INBOX_URI) {
      const inbox = await readInbox(ctx);
      if (inbox.__typename !== 'Inbox') throw new Error(`no inbox to follow: ${inbox.__typename}`);
      return map(inboxArrivals(options, goalId, inbox.cursor), (item) =>
        item.__typename === 'InboxMessage'
          ? { changed: true }
          : { changed: false, why: item.__typename },
      );
    }
    // the directory
    const directory = await readDirectory(ctx);
    if (directory.scopeGap) throw new Error(`no directory to follow: ${directory.scopeGap.reason}`);
    return map(
      presenceChanges(options, goalId, undefined, directoryPresenceSeq(directory)),
      (item) => (item.scopeGap ? { changed: false, why: item.scopeGap.reason } : { changed: true }),
    );
  }

  s.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    watchers.get(request.params.uri)?.abort();
    watchers.delete(request.params.uri);
    return {};
  });

  return () => {
    for (const controller of watchers.values()) controller.abort();
    watchers.clear();
  };
}
