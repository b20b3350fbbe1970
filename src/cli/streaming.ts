/**
 * What only the streaming verbs (wait, send --wait, delivery --follow) need: the `ws`
 * WebSocket for graphql-ws, the resumable streams and a spinner. Loaded with a dynamic
 * import, so the other verbs never pay for them.
 */

import WebSocket from 'ws';
import yoctoSpinner from 'yocto-spinner';
import type { StreamOptions } from '../client/streams.ts';
import type { Context } from './context.ts';
import { inert } from './output.ts';

export {
  deliveryOutcomes,
  followWait,
  inboxArrivals,
  ledgerEvents,
} from '../client/streams.ts';

/** Stream options for the verb's connection; reconnects until `giveUpAt`. */
export function streamOptions(
  ctx: Context,
  giveUpAt?: number,
  onReconnect?: (why: string) => void,
): StreamOptions {
  return {
    url: ctx.connection.url,
    token: ctx.connection.token,
    webSocketImpl: WebSocket,
    giveUpAt,
    onConnection: (event) => {
      if (event.state === 'reconnecting') onReconnect?.(event.reason);
    },
  };
}

export interface Progress {
  /** Replaces the text after the elapsed time. */
  update(text: string): void;
  stop(): void;
}

/**
 * A spinner on stderr with elapsed time, only on a TTY and without --quiet. Its text names
 * pins and occupants other callers reported, so it is shown inert.
 */
export function progress(ctx: Context, text: string): Progress {
  if (!process.stderr.isTTY || ctx.quiet) return { update() {}, stop() {} };
  const started = Date.now();
  let label = inert(text);
  const render = () => `${Math.round((Date.now() - started) / 1000)} s  ${label}`;
  const spinner = yoctoSpinner({ text: render(), stream: process.stderr }).start();
  const timer = setInterval(() => {
    spinner.text = render();
  }, 250);
  return {
    update(next) {
      label = inert(next);
      spinner.text = render();
    },
    stop() {
      clearInterval(timer);
      spinner.stop();
    },
  };
}
