/**
 * Limits per caller and per operation, on both transports: each refusal has its code and its
 * words, writes nothing, and leaves other callers (and the caller's other operations) alone.
 */
import { describe, expect, it } from 'vitest';
import { t } from './support/gateway-per-file.ts';
import { driver, peerInNewGoal, wsClient, wsQuery } from './support/harness.ts';

/** An error as a client compares it: without the request id, which differs per request. */
const comparable = (errors: unknown) =>
  (errors as { extensions?: Record<string, unknown> }[]).map(({ extensions, ...error }) => {
    const { requestId: _requestId, ...rest } = extensions ?? {};
    return { ...error, extensions: rest };
  });

describe(`query limits read the same on every transport (${driver})`, () => {
  it('aliases, tokens, depth, syntax and unknown fields: the same words and code over graphql-ws as over HTTP', async () => {
    const peer = await peerInNewGoal(t);
    const client = wsClient(t.wsUrl, peer.token);
    const bad = [
      `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: me { kind }`).join(' ')} }`,
      `{ me { ${Array.from({ length: 4100 }, () => 'kind').join(' ')} } }`,
      `{ ${'me { '.repeat(14)}kind${' }'.repeat(15)}`,
      '{ me { ',
      '{ nope }',
    ];
    for (const query of bad) {
      const http = await t.gql(query, {}, peer.token);
      const ws = await wsQuery(client, query).then(
        () => [],
        (errors: unknown) => errors,
      );
      expect(comparable(ws), query.slice(0, 40)).toEqual(comparable(http.errors));
      expect(comparable(ws)[0]?.extensions.code, query.slice(0, 40)).toMatch(/^[A-Z_]+$/);
      expect(JSON.stringify(ws)).not.toMatch(/Syntax Error: Query validation error|"http"/);
    }
    await client.dispose();
  });
});
