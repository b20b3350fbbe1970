import { fileURLToPath } from 'node:url';

/**
 * The repository (or image) root. This module sits one folder below it in the sources
 * (src/root.ts) and the gateway bundle does too (dist/gateway.js), so the same relative URL
 * finds the root in both.
 */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
