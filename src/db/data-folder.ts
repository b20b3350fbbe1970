import fs from 'node:fs';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { ConfigError } from '../config.ts';

/**
 * The embedded database's folder on disk, kept as Postgres keeps a data directory: private to
 * the user that runs the gateway (folders 0700, files 0600) and durable (a commit returns once
 * its WAL is on the disk).
 */

/** Group and others: no bit of them is allowed on the data folder. */
const OPEN_TO_OTHERS = 0o077;
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;

/** The part of Emscripten's NODEFS (PGlite's filesystem on Node) that is changed here. */
interface NodeFsModule {
  node_ops: {
    mknod(parent: unknown, name: string, mode: number, dev: number): unknown;
    setattr(node: unknown, attributes: { mode?: number }): void;
  };
  stream_ops: {
    setattr(stream: unknown, attributes: { mode?: number }): void;
    fsync?(stream: { nfd: number; node: { mode: number } }): number;
  };
  tryFSOperation<T>(operation: () => T): T;
}

/**
 * PGlite's Node filesystem with two repairs. Postgres inside PGlite reaches the disk through
 * Emscripten's NODEFS, which gives files and folders the modes Postgres and its initdb ask for
 * (initdb sets 0666 on every file it writes) and has no fsync at all: Emscripten's fdatasync
 * is a no-op and its fsync calls a NODEFS fsync that does not exist, so even with `fsync=on`
 * nothing was ever flushed. Here no file or folder is created or set with a group or other
 * bit, and fsync is the real one: fdatasync(2) for a file (its data and size, which is what
 * Postgres asks of a WAL flush), fsync(2) for a folder (its entries, after a rename). Errors
 * reach Postgres as the errno they are, so a failed flush is a failed commit.
 */
export class DataFolderFS extends NodeFS {
  constructor(dataDir: string) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    super(dataDir);
  }

  override async init(...args: Parameters<NodeFS['init']>) {
    const { emscriptenOpts } = await super.init(...args);
    const repair = (module: { NODEFS: unknown }) => {
      const { node_ops, stream_ops, tryFSOperation } = module.NODEFS as NodeFsModule;
      const { mknod } = node_ops;
      node_ops.mknod = (parent, name, mode, dev) =>
        mknod(parent, name, mode & ~OPEN_TO_OTHERS, dev);
      const privately =
        <T>(setattr: (on: T, attributes: { mode?: number }) => void) =>
        (on: T, attributes: { mode?: number }) =>
          setattr(
            on,
            attributes.mode === undefined
              ? attributes
              : { ...attributes, mode: attributes.mode & ~OPEN_TO_OTHERS },
          );
      node_ops.setattr = privately(node_ops.setattr);
      stream_ops.setattr = privately(stream_ops.setattr);
      stream_ops.fsync = (stream) => {
        const folder = (stream.node.mode & S_IFMT) === S_IFDIR;
        tryFSOperation(() => (folder ? fs.fsyncSync : fs.fdatasyncSync)(stream.nfd));
        return 0;
      };
    };
    return {
      emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), repair] },
    };
  }
}

/**
 * Makes `folder` (0700 when it is created) and checks that it is a folder this process can
 * write, open to no one else, as Postgres checks its data directory: it holds the database
 * and the operator token.
 */
export function ensureDataFolder(folder: string): void {
  let mode: number;
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    fs.accessSync(folder, fs.constants.R_OK | fs.constants.W_OK);
    const stat = fs.statSync(folder);
    if (!stat.isDirectory()) throw new Error('not a folder');
    mode = stat.mode;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(
      `SWITCHBOARD_DATA_DIR: cannot use "${folder}" as the data folder (${reason}); point it at a writable folder`,
    );
  }
  if (mode & OPEN_TO_OTHERS) {
    throw new ConfigError(
      `SWITCHBOARD_DATA_DIR: "${folder}" is open to group or others (mode ${octal(mode)}); it holds the database and the operator token: run chmod -R go-rwx ${shellWord(folder)}`,
    );
  }
}

/** Whether `file` exists with no group or other permission bits. */
export function isPrivate(file: string): boolean {
  try {
    return (fs.statSync(file).mode & OPEN_TO_OTHERS) === 0;
  } catch {
    return false;
  }
}

/** A file's permission bits as `ls` and chmod write them (0644). */
export const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** `value` as one shell word, quoted only when it must be. */
export const shellWord = (value: string) =>
  /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
