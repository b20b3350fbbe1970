// Bundles src/cli into dist/cli/switchboard.js and src/mcp into dist/cli/mcp.js (plus lazily loaded chunks) with esbuild, so
// `switchboard` runs compiled JavaScript, not a TypeScript loader. Run by `npm run build:cli`
// and by the `prepare` script on `npm install`. Plain JavaScript: it must run before tsx.
// Flags: --no-minify (readable output for profiling), --if-available (see below).
import { readFileSync, rmSync } from 'node:fs';

// `npm ci --omit=dev` (the Dockerfile) runs `prepare` too, without esbuild: the gateway image
// does not need the CLI, so a production install skips the build instead of failing.
let build;
try {
  ({ build } = await import('esbuild'));
} catch {
  if (!process.argv.includes('--if-available'))
    throw new Error('esbuild is not installed: npm install');
  console.warn('switchboard: esbuild not installed (production install): CLI not built');
  process.exit(0);
}

const root = new URL('..', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
rmSync(`${root}dist/cli`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  // The MCP server is its own entry: the `mcp` verb imports ./mcp.js at run time.
  entryPoints: { switchboard: 'src/cli/main.ts', mcp: 'src/mcp/main.ts' },
  outdir: 'dist/cli',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: !process.argv.includes('--no-minify'),
  legalComments: 'none',
  logLevel: 'warning',
  // CommonJS dependencies (cli-table3) call require(): give the ESM bundle one.
  banner: {
    js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
  },
  // ws's optional native add-ons; it runs without them.
  external: ['bufferutil', 'utf-8-validate'],
  define: { SWITCHBOARD_VERSION: JSON.stringify(version) },
  metafile: process.argv.includes('--meta'),
}).then((result) => {
  if (result.metafile) console.log(JSON.stringify(result.metafile, null, 0).length);
});
