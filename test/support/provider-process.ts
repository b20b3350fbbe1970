/**
 * A presence provider in its own process (test/fixtures/heartbeat-provider.ts), for tests that
 * kill it with SIGKILL: from the gateway's side its reports simply stop, as when any provider
 * or its host dies.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Starts the provider for `env` (SWITCHBOARD_URL, SWITCHBOARD_TOKEN, PROVIDER_ID, GOAL_ID,
 * AGENTS, PRESENCE_TTL_MS); it reports its agents WORKING every TTL / 3 until it is killed.
 */
export function providerProcess(env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('../fixtures/heartbeat-provider.ts', import.meta.url)),
    ],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let lastReport = 0;
  let reports = 0;
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    for (const match of text.matchAll(/reported (\d+)/g)) {
      lastReport = Number(match[1]);
      reports++;
    }
  });
  return {
    child,
    reports: () => reports,
    /** When the last accepted report was sent (its lapse is due a TTL after its write). */
    lastReport: () => lastReport,
    /** SIGKILL, once; resolves when it has exited. */
    async kill9(): Promise<void> {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
