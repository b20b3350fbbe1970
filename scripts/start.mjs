// `npm start`: runs the gateway bundle (dist/gateway.js) in this process. It rebuilds the
// bundle first when it is missing or older than a file under src/, and says which; with no
// esbuild (a production install) a missing bundle is one line of error. Plain JavaScript, so
// no TypeScript loader costs start-up time.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = path.join(root, 'dist', 'gateway.js');

/** The newest modification time of any file under `folder`, in milliseconds. */
function newest(folder) {
  let latest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      latest = Math.max(latest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

let built = null;
try {
  built = statSync(bundle).mtimeMs;
} catch {}
const stale = built === null ? 'missing' : built < newest(path.join(root, 'src')) ? 'older' : null;
if (stale) {
  process.stderr.write(
    stale === 'missing'
      ? 'switchboard: dist/gateway.js is missing: building it\n'
      : 'switchboard: src/ changed since dist/gateway.js was built: rebuilding it\n',
  );
  const { buildGateway } = await import('./build-gateway.mjs');
  try {
    await buildGateway();
  } catch (error) {
    process.stderr.write(`switchboard: cannot build the gateway: ${error.message}\n`);
    process.exit(1);
  }
}
await import(pathToFileURL(bundle).href);
