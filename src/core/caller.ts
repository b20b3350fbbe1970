/**
 * Who is calling, exactly as its credential says (docs/architecture.md, "Callers and scope").
 * Scope is derived from this and the registry, never from arguments the caller passes. Each
 * kind carries only the fields that apply to it, so code that needs a PEER's agent narrows on
 * `kind` instead of casting.
 */
export const callerKinds = ['ADMIN', 'STEWARD', 'PEER', 'PROVIDER'] as const;
export type CallerKind = (typeof callerKinds)[number];

export interface AdminCaller {
  readonly kind: 'ADMIN';
  /** null for the operator token from the environment or the data folder. */
  readonly credentialId: string | null;
}

/** The person's channel: the goals bound to its credential. */
export interface StewardCaller {
  readonly kind: 'STEWARD';
  readonly credentialId: string;
  readonly goalIds: readonly string[];
}

/** A registered agent: the goal and agent its credential is bound to. */
export interface PeerCaller {
  readonly kind: 'PEER';
  readonly credentialId: string;
  readonly goalId: string;
  readonly agentId: string;
}

/** A presence provider: the provider it speaks for and the goals it reports for. */
export interface ProviderCaller {
  readonly kind: 'PROVIDER';
  readonly credentialId: string;
  readonly providerId: string;
  readonly goalIds: readonly string[];
}

export type Caller = AdminCaller | StewardCaller | PeerCaller | ProviderCaller;

/** The caller of the operator token. */
export const OPERATOR: AdminCaller = { kind: 'ADMIN', credentialId: null };

/**
 * Who a write acts as, recorded with it: the caller's kind and credential, and the agent it
 * acts for (a PEER's own; the agent an ADMIN or STEWARD named; null when it acts as itself).
 */
export interface Actor {
  readonly kind: CallerKind;
  readonly agentId: string | null;
  readonly credentialId: string | null;
}
