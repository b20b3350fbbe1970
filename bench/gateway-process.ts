/**
 * A gateway in its own process, so a benchmark's clients do not share its event loop. The
 * parent (bench/support.ts) receives `{ url, adminToken }` and may ask for `heap` (after GC).
 * The configuration is read from the environment as `npm start` reads it, so a benchmark can
 * set any SWITCHBOARD_* variable; only the address, token, logging and limits are fixed here.
 * The embedded database is in memory unless SWITCHBOARD_DATA_DIR names a folder.
 */
import { randomUUID } from 'node:crypto';
import { type Config, loadConfig } from '../src/config.ts';
import { startGateway } from '../src/gateway.ts';
import { createLogger } from '../src/log.ts';

const adminToken = `bench-admin-${randomUUID()}`;
const config: Config = {
  ...loadConfig(process.env),
  host: '127.0.0.1',
  port: 0,
  database: process.env.DATABASE_URL
    ? { driver: 'postgres', url: process.env.DATABASE_URL }
    : { driver: 'pglite', dataDir: process.env.SWITCHBOARD_DATA_DIR || null },
  dataDir: '/nonexistent-switchboard-bench',
  adminToken,
  // Off unless asked for (the dashboard benchmark measures the GraphiQL page).
  exploration: process.env.SWITCHBOARD_EXPLORATION === 'true',
  maxBodyBytes: 10_000_000,
  logLevel: 'silent',
};
const gateway = await startGateway(config, createLogger('silent'));
const gc = (globalThis as { gc?: () => void }).gc;

// The benchmark that started this process has gone (it crashed): end with it.
process.on('disconnect', () => process.exit(1));
process.on('message', (message: { type: string }) => {
  if (message.type === 'heap') {
    gc?.();
    gc?.();
    process.send?.({ type: 'heap', heapUsed: process.memoryUsage().heapUsed, gc: Boolean(gc) });
  } else if (message.type === 'stop') {
    void gateway.stop().then(() => process.exit(0));
  }
});
process.send?.({ type: 'ready', url: gateway.url, adminToken });
