// Bundles the gateway (src/main.ts) into dist/gateway.js with esbuild, so `npm start` and the
// Docker image run compiled JavaScript, not a TypeScript loader; then makes the pre-migrated
// PGlite template (dist/pglite-template/) that a first start on the embedded database copies.
// Run by `npm run build:gateway`, by the `prepare` script on `npm install`, and by
// scripts/start.mjs when the bundle is missing or older than src/. Plain JavaScript: it runs
// before tsx. Packages stay external (node_modules is read at run time), so a dependency
// change never needs a rebuild. Each output is written beside and renamed into place.
// Flags: --if-available (no esbuild: a production install skips the build), --no-template.
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const gatewayBundle = path.join(root, 'dist', 'gateway.js');
const templateBundle = path.join(root, 'dist', 'make-template.js');

/** Writes dist/gateway.js and dist/make-template.js; throws when esbuild is not installed. */
export async function buildGateway() {
  let build;
  try {
    ({ build } = await import('esbuild'));
  } catch {
    throw new Error('esbuild is not installed: npm install');
  }
  const result = await build({
    absWorkingDir: root,
    // Both one folder below the root, as their sources are (src/root.ts relies on it).
    entryPoints: { gateway: 'src/main.ts', 'make-template': 'src/db/make-template.ts' },
    outdir: 'dist',
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
  });
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  for (const file of result.outputFiles) {
    const partial = `${file.path}.partial-${process.pid}`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
}

/** Writes dist/pglite-template/ unless it holds the current migrations. */
export function buildTemplate() {
  execFileSync(process.execPath, [templateBundle], { stdio: 'inherit' });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    await buildGateway();
  } catch (error) {
    // `npm ci --omit=dev` runs `prepare` too, without esbuild: skip instead of failing.
    if (!process.argv.includes('--if-available')) throw error;
    console.warn('switchboard: esbuild not installed (production install): gateway not built');
    process.exit(0);
  }
  if (!process.argv.includes('--no-template')) buildTemplate();
}
