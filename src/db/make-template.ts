/**
 * Process entry of dist/make-template.js, which scripts/build-gateway.mjs runs on install:
 * writes the pre-migrated PGlite template that first starts copy, unless the one there already
 * holds the current migrations (`--force` rewrites it anyway).
 */
import { pgliteTemplate, pgliteTemplateIsCurrent, writePgliteTemplate } from './database.ts';

if (!process.argv.includes('--force') && pgliteTemplateIsCurrent(pgliteTemplate)) {
  process.stdout.write(`switchboard: PGlite template up to date (${pgliteTemplate})\n`);
} else {
  const started = performance.now();
  await writePgliteTemplate(pgliteTemplate);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `switchboard: PGlite template written in ${seconds} s (${pgliteTemplate})\n`,
  );
}
