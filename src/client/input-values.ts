/**
 * Enum values an input field takes where the gateway accepts fewer than the schema enum the
 * field is typed with (the schema cannot say so: the field's type is the whole enum). Each is
 * the generated enum's values less those the gateway refuses, for the CLI and the MCP server to
 * offer exactly what the gateway takes.
 */
import { Liveness } from './generated/graphql.ts';

/** WaitInput.accept: a settled liveness. The gateway refuses UNREACHABLE and UNKNOWN. */
export const settledLiveness = Object.values(Liveness).filter(
  (liveness) => liveness !== 'UNREACHABLE' && liveness !== 'UNKNOWN',
);
