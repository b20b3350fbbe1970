/**
 * Enum values an input field takes where the gateway accepts fewer than the schema enum the
 * field is typed with (the schema cannot say so: the field's type is the whole enum). Each is
 * the generated enum's values less those the gateway refuses, for the CLI and the MCP server to
 * offer exactly what the gateway takes.
 */
import { LedgerEventKind, Liveness } from './generated/graphql.ts';

/** WaitInput.accept: a settled liveness. The gateway refuses UNREACHABLE and UNKNOWN. */
export const settledLiveness = Object.values(Liveness).filter(
  (liveness) => liveness !== 'UNREACHABLE' && liveness !== 'UNKNOWN',
);

/**
 * RecordEventInput.eventKind: the kinds agents and hosts record. The gateway writes the others
 * itself (REPLAN by recordReplanCheckpoint, DELIVERY by deliveries, EXTERNAL_EVENT by
 * recordExternalEvent, GOAL_CLOSED by closeGoal) and refuses them here.
 */
export const recordableEventKinds = Object.values(LedgerEventKind).filter(
  (kind) =>
    kind !== 'REPLAN' && kind !== 'DELIVERY' && kind !== 'EXTERNAL_EVENT' && kind !== 'GOAL_CLOSED',
);
