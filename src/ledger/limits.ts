/** Bounds of ledger reads, checkpoints and streams (docs/api.md, "Evidence ledger"). */
export const LEDGER_LIMITS = {
  defaultLimit: 30,
  maxLimit: 200,
  /** A checkpoint must cite a read of at least this many rows (or every row there is). */
  minCheckpointRows: 30,
  frontierRows: 100,
  streamPage: 500,
} as const;
