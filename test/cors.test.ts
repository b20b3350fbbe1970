import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { database, t } from './support/gateway-per-file.ts';
import { driver, startTestGateway } from './support/harness.ts';

const ALLOWED = 'https://dashboard.example.com';
const FOREIGN = 'https://evil.example.net';

const post = (url: string, origin: string, token: string) =>
  fetch(url, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ me { kind } }' }),
  });
const preflight = (url: string, origin: string) =>
  fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });
const cors = (response: Response) => ({
  origin: response.headers.get('access-control-allow-origin'),
  credentials: response.headers.get('access-control-allow-credentials'),
});

describe(`CORS (${driver})`, () => {
  it('by default reflects no foreign origin and never allows credentials', async () => {
    for (const response of [
      await post(t.url, FOREIGN, t.adminToken),
      await preflight(t.url, FOREIGN),
    ])
      expect(cors(response)).toEqual({ origin: null, credentials: null });
    // The gateway's own pages are same-origin: they need no CORS headers and still work.
    const own = await post(t.url, new URL(t.url).origin, t.adminToken);
    expect(await own.json()).toEqual({ data: { me: { kind: 'ADMIN' } } });
  });

  it('answers the listed origins only, without credentials, exposing x-request-id', async () => {
    const gateway = await startTestGateway(database, { corsOrigins: [ALLOWED] });
    try {
      const allowed = await post(gateway.url, ALLOWED, gateway.adminToken);
      expect(cors(allowed)).toEqual({ origin: ALLOWED, credentials: null });
      expect(allowed.headers.get('access-control-expose-headers')).toBe('x-request-id');
      const check = await preflight(gateway.url, ALLOWED);
      expect(cors(check)).toEqual({ origin: ALLOWED, credentials: null });
      expect(check.headers.get('access-control-allow-headers')).toContain('authorization');
      for (const response of [
        await post(gateway.url, FOREIGN, gateway.adminToken),
        await preflight(gateway.url, FOREIGN),
      ])
        expect(cors(response)).toEqual({ origin: null, credentials: null });
    } finally {
      await gateway.stop();
    }
  });

  it('reads SWITCHBOARD_CORS_ORIGINS and refuses anything but origins with one line', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(
      loadConfig({ SWITCHBOARD_CORS_ORIGINS: 'https://a.example.com, http://127.0.0.1:5173/' })
        .corsOrigins,
    ).toEqual(['https://a.example.com', 'http://127.0.0.1:5173']);
    for (const value of ['*', 'a.example.com', 'https://a.example.com/path', 'ftp://x.example']) {
      expect(() => loadConfig({ SWITCHBOARD_CORS_ORIGINS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ SWITCHBOARD_CORS_ORIGINS: value })).toThrow(
        /^SWITCHBOARD_CORS_ORIGINS must be a comma-separated list of origins/,
      );
    }
  });
});
