/**
 * The CLI's HTTP transport: node:http(s) with one connection per request and no keep-alive.
 * Global fetch keeps its pooled socket alive, which holds a short-lived process open for a
 * few hundred milliseconds after its answer; agents call this CLI hundreds of times.
 */
import http from 'node:http';
import type { Transport } from '../client/client.ts';

export const nodeTransport: Transport = async ({ url, headers, body, timeoutMs, signal }) => {
  // TLS costs start-up time: load it only for an https gateway.
  const client = url.startsWith('https:') ? (await import('node:https')).default : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { ...headers, connection: 'close', 'content-length': Buffer.byteLength(body) },
        timeout: timeoutMs,
        signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
};
