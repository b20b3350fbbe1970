// Builds the operator dashboard (dashboard/, Vite) into dashboard/dist, which the gateway serves
// at `/`. Run by `npm run build:dashboard` and by the `prepare` script on `npm install`/`npm ci`.
// Plain JavaScript: it runs before tsx. --if-available: a production install (`npm ci
// --omit=dev`) has no Vite; it skips the build and the gateway answers `/` with how to build it.
let build;
try {
  ({ build } = await import('vite'));
} catch {
  if (!process.argv.includes('--if-available'))
    throw new Error('vite is not installed: npm install');
  console.warn('switchboard: vite not installed (production install): dashboard not built');
  process.exit(0);
}

const root = new URL('../dashboard/', import.meta.url).pathname;
await build({ configFile: `${root}vite.config.ts`, root, logLevel: 'warn' });
