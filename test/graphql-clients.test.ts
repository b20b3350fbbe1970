/**
 * Common GraphQL clients, each through its own library with its default settings, against a
 * real gateway: urql (queries as GET), graphql-sse in its distinct-connections and its
 * single-connection mode, Apollo Client (HTTP, and graphql-ws for subscriptions) and
 * graphql-ws — a query, a mutation and a subscription each. And what stays refused, with a
 * code naming why: a request a browser could forge cross-site, and a method an endpoint does
 * not serve (checked first).
 */
import { ApolloClient, gql, HttpLink, InMemoryCache, split } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import {
  cacheExchange,
  fetchExchange,
  subscriptionExchange,
  Client as UrqlClient,
} from '@urql/core';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DeliverDocument } from '../src/client/generated/graphql.ts';
import { eventually, startGateway, team, uid } from './support/cli.ts';

let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

const ME = 'query Me { me { kind agentId goalId } }';
const SET_CAPABILITIES = `mutation Caps($goalId: ID!, $capabilities: [String!]!) {
  setCapabilities(input: { goalId: $goalId, capabilities: $capabilities }) {
    __typename ... on AgentCapabilities { capabilities }
  }
}`;
const INBOX = `subscription Inbox($goalId: ID!) {
  inboxMessages(goalId: $goalId) { __typename ... on InboxMessage { subject } }
}`;

/** A team of two; `b` is the client's caller, `a` writes to b's inbox once b listens. */
async function scene() {
  const { goalId, a, b } = await team(gw.t, ['a', 'b']);
  const wsUrl = gw.url.replace(/^http/, 'ws');
  /** Sends b one message from a, with this subject. */
  const sendToB = (subject: string) =>
    gw.t.ok(
      DeliverDocument,
      {
        input: {
          goalId,
          to: b.agentId,
          subject,
          body: 'hello',
          kind: 'CONTEXT',
          idempotencyKey: uid('k'),
        },
      },
      a.token,
    );
  /**
   * Runs `subscribe` (which resolves with the first subject it receives), and sends messages
   * to b until it does: a subscription starts listening at some point after it is sent.
   */
  async function firstArrival(subscribe: () => Promise<string>): Promise<string> {
    let received: string | undefined;
    const arrival = subscribe().then((subject) => {
      received = subject;
      return subject;
    });
    arrival.catch(() => {});
    await eventually(
      async () => {
        if (received !== undefined) return true;
        await Promise.race([
          arrival,
          sendToB('ping').then(() => new Promise((r) => setTimeout(r, 200))),
        ]);
        return received !== undefined ? true : undefined;
      },
      'a message to arrive through the subscription',
      20_000,
    );
    return arrival;
  }
  return { goalId, a, b, wsUrl, firstArrival };
}

describe('GraphQL clients', () => {
  it('urql, default client: queries as GET, a mutation, a subscription over graphql-ws', async () => {
    const { goalId, b, wsUrl, firstArrival } = await scene();
    const ws = createWsClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${b.token}` },
    });
    const methods: string[] = [];
    const client = new UrqlClient({
      url: gw.url,
      fetch: (input, init) => {
        methods.push(init?.method ?? 'GET');
        return fetch(input, init);
      },
      fetchOptions: { headers: { authorization: `Bearer ${b.token}` } },
      exchanges: [
        cacheExchange,
        fetchExchange,
        subscriptionExchange({
          forwardSubscription: (request) => ({
            subscribe: (sink) => ({
              unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink),
            }),
          }),
        }),
      ],
    });
    try {
      const me = await client.query(ME, {}).toPromise();
      expect(me.error).toBeUndefined();
      expect(me.data.me).toMatchObject({ kind: 'PEER', agentId: b.agentId, goalId });
      expect(methods).toEqual(['GET']);
      const caps = await client
        .mutation(SET_CAPABILITIES, { goalId, capabilities: ['urql'] })
        .toPromise();
      expect(caps.error).toBeUndefined();
      expect(caps.data.setCapabilities).toEqual({
        __typename: 'AgentCapabilities',
        capabilities: ['urql'],
      });
      const subject = await firstArrival(
        () =>
          new Promise((resolve, reject) => {
            const { unsubscribe } = client.subscription(INBOX, { goalId }).subscribe((result) => {
              if (result.error) return reject(result.error);
              const arrival = result.data?.inboxMessages;
              if (arrival?.__typename === 'InboxMessage') {
                unsubscribe();
                resolve(arrival.subject);
              }
            });
          }),
      );
      expect(subject).toBe('ping');
    } finally {
      await ws.dispose();
    }
  }, 40_000);

  for (const singleConnection of [false, true])
    it(`graphql-sse, ${singleConnection ? 'single-connection' : 'distinct-connections'} mode: a query, a mutation, a subscription`, async () => {
      const { goalId, b, firstArrival } = await scene();
      const client = createSseClient({
        // single-connection mode reserves its stream with PUT: graphql-sse's own endpoint
        url: singleConnection ? `${gw.url}/stream` : gw.url,
        singleConnection,
        headers: { authorization: `Bearer ${b.token}` },
        retryAttempts: 0,
      });
      const once = async (query: string, variables: Record<string, unknown> = {}) => {
        for await (const result of client.iterate({ query, variables })) return result;
        throw new Error('no result');
      };
      try {
        const me = await once(ME);
        expect(me.errors).toBeUndefined();
        expect((me.data as any).me).toMatchObject({ agentId: b.agentId });
        const caps = await once(SET_CAPABILITIES, { goalId, capabilities: ['sse'] });
        expect((caps.data as any).setCapabilities.capabilities).toEqual(['sse']);
        const subject = await firstArrival(async () => {
          for await (const result of client.iterate({ query: INBOX, variables: { goalId } })) {
            const arrival = (result.data as any)?.inboxMessages;
            if (result.errors) throw new Error(JSON.stringify(result.errors));
            if (arrival?.__typename === 'InboxMessage') return arrival.subject as string;
          }
          throw new Error('the subscription ended');
        });
        expect(subject).toBe('ping');
      } finally {
        client.dispose();
      }
    }, 40_000);

  it('Apollo Client: HTTP for queries and mutations, graphql-ws for a subscription', async () => {
    const { goalId, b, wsUrl, firstArrival } = await scene();
    const ws = createWsClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${b.token}` },
    });
    const client = new ApolloClient({
      cache: new InMemoryCache(),
      link: split(
        ({ query }) => {
          const definition = getMainDefinition(query);
          return (
            definition.kind === 'OperationDefinition' && definition.operation === 'subscription'
          );
        },
        new GraphQLWsLink(ws),
        new HttpLink({ uri: gw.url, headers: { authorization: `Bearer ${b.token}` } }),
      ),
    });
    try {
      const me = await client.query<any>({ query: gql(ME) });
      expect(me.data.me).toMatchObject({ agentId: b.agentId, goalId });
      const caps = await client.mutate<any>({
        mutation: gql(SET_CAPABILITIES),
        variables: { goalId, capabilities: ['apollo'] },
      });
      expect(caps.data.setCapabilities.capabilities).toEqual(['apollo']);
      const subject = await firstArrival(
        () =>
          new Promise((resolve, reject) => {
            const subscription = client
              .subscribe<any>({ query: gql(INBOX), variables: { goalId } })
              .subscribe({
                next: (result) => {
                  const arrival = result.data?.inboxMessages;
                  if (arrival?.__typename === 'InboxMessage') {
                    subscription.unsubscribe();
                    resolve(arrival.subject);
                  }
                },
                error: reject,
              });
          }),
      );
      expect(subject).toBe('ping');
    } finally {
      client.stop();
      await ws.dispose();
    }
  }, 40_000);

  it('graphql-ws: a query, a mutation, a subscription', async () => {
    const { goalId, b, wsUrl, firstArrival } = await scene();
    const client = createWsClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${b.token}` },
    });
    const once = async (query: string, variables: Record<string, unknown> = {}) => {
      for await (const result of client.iterate({ query, variables })) return result;
      throw new Error('no result');
    };
    try {
      expect(((await once(ME)).data as any).me).toMatchObject({ agentId: b.agentId });
      const caps = await once(SET_CAPABILITIES, { goalId, capabilities: ['ws'] });
      expect((caps.data as any).setCapabilities.capabilities).toEqual(['ws']);
      const subject = await firstArrival(async () => {
        for await (const result of client.iterate({ query: INBOX, variables: { goalId } })) {
          const arrival = (result.data as any)?.inboxMessages;
          if (arrival?.__typename === 'InboxMessage') return arrival.subject as string;
        }
        throw new Error('the subscription ended');
      });
      expect(subject).toBe('ping');
    } finally {
      await client.dispose();
    }
  }, 40_000);
});

describe('refused, with a code that names why', () => {
  const refusal = async (response: Response) => ({
    status: response.status,
    allow: response.headers.get('allow'),
    code: ((await response.json()) as any).errors?.[0]?.extensions?.code,
  });

  it('a request a browser could forge cross-site: 403 CSRF_HEADER_REQUIRED', async () => {
    const query = encodeURIComponent('{ __typename }');
    for (const [url, init] of [
      [`${gw.url}?query=${query}`, {}],
      [
        gw.url,
        {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: '{"query":"{ __typename }"}',
        },
      ],
      [`${gw.url}/stream`, { method: 'PUT' }],
      [`${gw.url}/stream?query=${query}`, { headers: { accept: 'text/event-stream' } }],
    ] as const)
      expect(await refusal(await fetch(url, init)), `${init.method ?? 'GET'} ${url}`).toEqual({
        status: 403,
        allow: null,
        code: 'CSRF_HEADER_REQUIRED',
      });
    // the CSRF header alone (GraphiQL's way) lets the same GET through
    const withHeader = await fetch(`${gw.url}?query=${query}`, {
      headers: { 'x-graphql-yoga-csrf': '1' },
    });
    expect(withHeader.status).toBe(200);
    expect(await withHeader.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it("another credential's single-connection stream: 404 STREAM_NOT_FOUND", async () => {
    const { a, b } = await team(gw.t, ['a', 'b']);
    const reserved = await fetch(`${gw.url}/stream`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(reserved.status).toBe(201);
    const token = await reserved.text();
    const stream = { 'x-graphql-event-stream-token': token, accept: 'text/event-stream' };
    const other = await fetch(`${gw.url}/stream`, {
      headers: { authorization: `Bearer ${b.token}`, ...stream },
    });
    expect(await refusal(other)).toEqual({ status: 404, allow: null, code: 'STREAM_NOT_FOUND' });
    const own = await fetch(`${gw.url}/stream`, {
      headers: { authorization: `Bearer ${a.token}`, ...stream },
    });
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });

  it('a method the endpoint does not serve: 405 METHOD_NOT_ALLOWED with Allow, before CSRF', async () => {
    for (const [url, method, allow] of [
      [gw.url, 'PUT', 'GET, POST'],
      [gw.url, 'DELETE', 'GET, POST'],
      [`${gw.url}/stream`, 'PATCH', 'GET, POST, PUT, DELETE'],
    ] as const)
      expect(await refusal(await fetch(url, { method })), `${method} ${url}`).toEqual({
        status: 405,
        allow,
        code: 'METHOD_NOT_ALLOWED',
      });
  });
});
