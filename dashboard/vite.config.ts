import { defineConfig } from 'vite';

/**
 * The operator dashboard: Preact + the shared typed client (src/client), built into
 * dashboard/dist and served by the gateway at `/`. Asset URLs are relative, so the same build
 * works behind a path prefix.
 */
export default defineConfig({
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
  },
});
