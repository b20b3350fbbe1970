/**
 * Several gateways of one deployment behind one client. The url option (and SWITCHBOARD_URL)
 * may name more than one, separated by commas: the client uses one at a time and moves to the
 * next when the one it uses cannot serve — it cannot be reached, it answers 503, or a request
 * or stream has waited on it while its `/readyz` says it is not ready (for instance cut off
 * from the database). Browser-safe: global fetch only.
 */

/** The gateways a url option names, in the order they are tried. */
export function gatewayUrls(url: string): string[] {
  const urls = url
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  return urls.length ? urls : [url];
}

/** How long a request or an open stream goes before its gateway's readiness is checked again. */
export const READINESS_CHECK_MS = 2000;
/** A readiness check not answered within this long counts as not ready. */
const READINESS_TIMEOUT_MS = 5000;

/** Whether the gateway of this GraphQL endpoint answers 200 on `/readyz`. */
export async function gatewayReady(url: string): Promise<boolean> {
  try {
    const page = (globalThis as { location?: { href: string } }).location?.href;
    const response = await fetch(new URL('/readyz', page ? new URL(url, page) : url), {
      signal: AbortSignal.timeout(READINESS_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * Calls `unready` once if, while `watch` runs, a check every READINESS_CHECK_MS finds the
 * gateway not ready. Returns the function that stops watching.
 */
export function watchReadiness(url: string, unready: () => void): () => void {
  let stopped = false;
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    void gatewayReady(url).then((ready) => {
      checking = false;
      if (ready || stopped) return;
      stop();
      unready();
    });
  }, READINESS_CHECK_MS);
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return stop;
}
