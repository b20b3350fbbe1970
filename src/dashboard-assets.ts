import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run build:dashboard` (and `prepare`, on install) writes the operator dashboard. */
export const DASHBOARD_DIST = fileURLToPath(new URL('../dashboard/dist/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

const NOT_BUILT =
  'The Switchboard dashboard is not built: run `npm run build:dashboard` in the repository ' +
  '(`npm install` does it, a production install `npm ci --omit=dev` does not). ' +
  'The GraphQL API is at /graphql.\n';

/**
 * Serves the built dashboard: `/` is its index.html, `/assets/…` its hashed files (cached for
 * good). Answers only GET/HEAD of `/` and of files that exist under `dist`; returns false for
 * anything else, so the caller's other routes (GraphQL, health) are untouched.
 */
export async function serveDashboard(
  req: IncomingMessage,
  res: ServerResponse,
  dist = DASHBOARD_DIST,
): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const urlPath = (req.url ?? '/').split('?')[0] ?? '/';
  const index = urlPath === '/' || urlPath === '/index.html';
  if (!index && !urlPath.startsWith('/assets/')) return false;
  const file = path.join(dist, index ? 'index.html' : decodeURIComponent(urlPath));
  if (!file.startsWith(dist)) return false;
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    if (!index) return false;
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(NOT_BUILT);
    return true;
  }
  res.writeHead(200, {
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': body.length,
    'x-content-type-options': 'nosniff',
    'cache-control': index ? 'no-cache' : 'public, max-age=31536000, immutable',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
