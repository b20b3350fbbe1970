/**
 * Another client, in a process of its own so that the load a fault scenario generates does not
 * delay it here (bench/faults/abuse.ts, the limits' scenarios): `{ me { kind goalIds } }` over
 * HTTP with one credential, one request after another, 20 ms apart (well under the rate limit).
 *
 * Messages from the parent: `measure` (url, token) starts it (`ready` once its first request is
 * answered); `report` answers with the latencies (ms) and failed requests since the last report;
 * `stop` ends the process.
 */
import { now } from './support.ts';

let ms: number[] = [];
let failed = 0;
let running = false;

async function measure(url: string, token: string): Promise<void> {
  running = true;
  while (running) {
    const started = now();
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: '{ me { kind goalIds } }' }),
      });
      const body = (await response.json()) as { errors?: unknown };
      if (body.errors) failed++;
    } catch {
      failed++;
    }
    ms.push(now() - started);
    if (ms.length === 1) process.send?.({ type: 'ready' });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

process.on('disconnect', () => process.exit(1));
process.on('message', (message: { type: string; url?: string; token?: string }) => {
  if (message.type === 'measure') void measure(message.url as string, message.token as string);
  else if (message.type === 'report') {
    process.send?.({ type: 'report', ms, failed });
    ms = [];
    failed = 0;
  } else if (message.type === 'stop') {
    running = false;
    process.exit(0);
  }
});
