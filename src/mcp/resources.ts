/**
 * Push instead of polling: the caller's inbox and the goal's directory as resources, with
 * subscriptions. Subscribing reads the resource's cursor first and follows the gateway's
 * resumable stream from it (inboxMessages, presenceChanged), so an arrival after the subscribe
 * answer is never missed; each item sends `notifications/resources/updated`.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  DirectoryDocument,
  directoryPresenceSeq,
  InboxDocument,
  inboxArrivals,
  presenceChanges,
} from '../client/index.ts';
import type { McpContext } from './context.ts';

async function* map<T, U>(items: AsyncIterable<T>, f: (item: T) => U): AsyncGenerator<U> {
  for await (const item of items) yield f(item);
}

export const INBOX_URI = 'switchboard://inbox';
export const DIRECTORY_URI = 'switchboard://directory';

const json = (uri: string, value: unknown) => ({
  contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
});

async function readInbox(ctx: McpContext) {
  const { inbox } = await ctx.client.request(InboxDocument, {
    goalId: await ctx.goal(),
    unprocessed: true,
    tail: 50,
  });
  return inbox;
}

async function readDirectory(ctx: McpContext) {
  const { directory } = await ctx.client.request(DirectoryDocument, { goalId: await ctx.goal() });
  return directory;
}

/** Registers the resources and the subscribe handlers; returns a function that stops every stream. */
export function registerResources(server: McpServer, ctx: McpContext): () => void {
  server.registerResource(
    'inbox',
    INBOX_URI,
    {
      title: 'Your inbox',
      description:
        'Your unprocessed messages (newest 50) with unread/unprocessed counts. Subscribe to be told when one arrives; reading marks nothing read.',
      mimeType: 'application/json',
    },
    async (uri) => json(uri.href, await readInbox(ctx)),
  );
  server.registerResource(
    'directory',
    DIRECTORY_URI,
    {
      title: "The goal's directory",
      description:
        "The goal's agents, claimed todos and last reported presence. Subscribe to be told when presence changes. Presence is a report, not proof of progress.",
      mimeType: 'application/json',
    },
    async (uri) => json(uri.href, await readDirectory(ctx)),
  );

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
        await server.server.sendResourceUpdated({ uri });
      }
    } catch (error) {
      if (!signal.aborted) ctx.log(`${uri}: subscription ended: ${ctx.explain(error)}`);
    } finally {
      if (watchers.get(uri)?.signal === signal) watchers.delete(uri);
    }
  };

  server.server.registerCapabilities({ resources: { subscribe: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    if (uri !== INBOX_URI && uri !== DIRECTORY_URI)
      throw new Error(`unknown resource ${uri}: subscribe to ${INBOX_URI} or ${DIRECTORY_URI}`);
    if (watchers.has(uri)) return {};
    const controller = new AbortController();
    watchers.set(uri, controller);
    try {
      void follow(uri, await changes(uri, controller.signal), controller.signal);
    } catch (error) {
      watchers.delete(uri);
      throw error;
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

  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    watchers.get(request.params.uri)?.abort();
    watchers.delete(request.params.uri);
    return {};
  });

  return () => {
    for (const controller of watchers.values()) controller.abort();
    watchers.clear();
  };
}
