import { ConfigError, loadConfig } from './config.ts';
import { startGateway } from './gateway.ts';
import { createLogger } from './log.ts';

/** Process entry: environment -> config -> gateway; SIGTERM/SIGINT stop it cleanly. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const log = createLogger(config.logLevel);
  const gateway = await startGateway(config, log);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    // SIGTERM (an orchestrator) drains first; SIGINT (Ctrl-C) stops at once.
    gateway.stop({ drainMs: signal === 'SIGTERM' ? config.drainMs : 0 }).then(
      () => process.exit(0),
      (error: unknown) => {
        log.error('shutdown failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`switchboard: ${error.message}\n`);
  } else {
    process.stderr.write(
      `switchboard: failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
  }
  process.exit(1);
});
