import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Every file and folder under `folder` (itself included, as `.`) whose mode gives group or
 * others any permission: the data folder and its template must have none.
 */
export function openToOthers(folder: string): string[] {
  return [
    folder,
    ...readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((entry) =>
      path.join(folder, entry),
    ),
  ]
    .filter((file) => statSync(file).mode & 0o077)
    .map((file) => path.relative(folder, file) || '.');
}
