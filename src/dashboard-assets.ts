import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Encoded, encode, sendEncoded } from './http/encoded.ts';

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

/** Each file's compressed forms and the size and modification time they were made from. */
const encodedFiles = new Map<string, { version: string; encoded: Promise<Encoded> }>();

async function encodedFile(file: string): Promise<Encoded> {
  const { size, mtimeMs } = await stat(file);
  const version = `${size}:${mtimeMs}`;
  const cached = encodedFiles.get(file);
  if (cached?.version === version) return cached.encoded;
  const encoded = readFile(file).then(encode);
  encodedFiles.set(file, { version, encoded });
  encoded.catch(() => encodedFiles.delete(file));
  return encoded;
}

/**
 * Serves the built dashboard: `/` is its index.html (revalidated on every visit), `/assets/…`
 * its hashed files (cached for good), each compressed with Brotli or gzip as the client accepts.
 * Answers only GET/HEAD of `/` and of files that exist under `dist`; returns false for anything
 * else, so the caller's other routes (GraphQL, health) are untouched.
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
  let encoded: Encoded;
  try {
    encoded = await encodedFile(file);
  } catch {
    if (!index) return false;
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(NOT_BUILT);
    return true;
  }
  sendEncoded(
    req,
    res,
    {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'cache-control': index ? 'no-cache' : 'public, max-age=31536000, immutable',
    },
    encoded,
  );
  return true;
}
