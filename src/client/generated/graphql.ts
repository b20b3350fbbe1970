/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** Takes the occupancy lease of a todo. */
export type AcquireLeaseInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** The todo. */
  todoId: string | number;
  /** Time to live, 1 ms to 24 h. */
  ttlMs: number;
};

/** Why a row needs attention, from typed state only. Urgency is this order. */
export const AttentionReason = {
  /** An agent's claimed todo needs a decision scope an open gate covers. */
  BlockedOnGate: 'BLOCKED_ON_GATE',
  /** A presence provider stopped reporting for this goal: every presence its current instance reported here lapsed (coverageGap PRESENCE_TTL_EXPIRED: no report within its TTL; PROVIDER_REVOKED: no credential covers the goal). A fact about the provider, from its registration and its lapses; the agents it covered (agentIds) are not known to have stopped, only no longer seen. */
  ProviderSilent: 'PROVIDER_SILENT',
  /** A claim with no advancement for longer than the threshold. */
  StaleClaim: 'STALE_CLAIM',
  /** A delivery saw no activity from its recipient inside its window. */
  StalledDelivery: 'STALLED_DELIVERY',
  /** An open user gate or user action: a person must act. */
  WaitingOnOwner: 'WAITING_ON_OWNER'
} as const;

export type AttentionReason = typeof AttentionReason[keyof typeof AttentionReason];
/** What a BLOCKED agent waits for, as its status source said. Never permission to answer it. */
export const BlockedKind = {
  /** A login or credential only a person can give. */
  Auth: 'AUTH',
  /** Approval to run a tool or command. */
  Permission: 'PERMISSION',
  /** An answer to a question it asked. */
  Question: 'QUESTION'
} as const;

export type BlockedKind = typeof BlockedKind[keyof typeof BlockedKind];
/** What a credential lets its holder be. */
export const CallerKind = {
  /** An operator: registry writes and credentials; reads everything. */
  Admin: 'ADMIN',
  /** A registered agent: its goal plus goals delegated to it. */
  Peer: 'PEER',
  /** A presence provider: reports for its goals, reads nothing else. */
  Provider: 'PROVIDER',
  /** The agent a person talks to: the goals bound to its channel. */
  Steward: 'STEWARD'
} as const;

export type CallerKind = typeof CallerKind[keyof typeof CallerKind];
/** What a claim overlaps. A warning: the claim was made all the same. */
export const ClaimWarningKind = {
  /** Another agent claims a live todo of the same repository whose write scope overlaps this todo's. */
  WriteScopeConflict: 'WRITE_SCOPE_CONFLICT'
} as const;

export type ClaimWarningKind = typeof ClaimWarningKind[keyof typeof ClaimWarningKind];
/** Closes a goal once nothing holds it open. */
export type CloseGoalInput = {
  /** Relative refs to the acceptance evidence (1 to 20). */
  acceptanceRefs: Array<string>;
  /** The goal. */
  goalId: string | number;
  /** Why it is closed (at most 500 characters; screened). */
  reason: string;
};

/** Closes a todo with no successor. */
export type CloseNoFollowUpInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** Why no follow-up is needed, up to 500 characters. */
  reason: string;
  /** The todo. */
  todoId: string | number;
};

/** Completes a todo with evidence, optionally creating its successor. */
export type CompleteTodoInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** At least one relative, credential-free reference (a commit, a test run, a relative path); absolute paths are refused. At most 20. */
  evidenceRefs: Array<string>;
  /** The goal. */
  goalId: string | number;
  /** The next unit of work, created in the same transaction. */
  successor?: TodoSpecInput | null | undefined;
  /** The todo. */
  todoId: string | number;
};

/** Who owns the work created to continue a todo (its successor or replacement). */
export const ContinuationPolicy = {
  /** The new todo is left unclaimed for any qualified peer. The default. */
  IndependentHandoff: 'INDEPENDENT_HANDOFF',
  /** The same agent does a bounded follow-up: the new todo is claimed by it. */
  SameAgentNonDelivery: 'SAME_AGENT_NON_DELIVERY'
} as const;

export type ContinuationPolicy = typeof ContinuationPolicy[keyof typeof ContinuationPolicy];
/** Why presence reads UNKNOWN. Says that nobody can currently tell, never that the agent stopped. Every gap but PROVIDER_CANNOT_CLASSIFY is a lapse: recorded once, as its own change on every presence stream, when it happens; a later report of the location clears it with another change. */
export const CoverageGap = {
  /** No report within the provider's declared presence TTL (counted from when the gateway received the last one): the provider stopped reporting it, or is gone. */
  PresenceTtlExpired: 'PRESENCE_TTL_EXPIRED',
  /** The provider itself reported UNKNOWN. Not a lapse. */
  ProviderCannotClassify: 'PROVIDER_CANNOT_CLASSIFY',
  /** Reported by an earlier instance of a provider that has since re-registered with a new instanceId. */
  ProviderRestarted: 'PROVIDER_RESTARTED',
  /** No unrevoked credential of the provider covers the goal any more. */
  ProviderRevoked: 'PROVIDER_REVOKED'
} as const;

export type CoverageGap = typeof CoverageGap[keyof typeof CoverageGap];
/** A new goal. */
export type CreateGoalInput = {
  /** 1-64 letters, digits, ".", "_" or "-". */
  goalId: string | number;
  /** Up to 200 characters. */
  title: string;
};

/** A new todo in a goal. */
export type CreateTodoInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** Who owns its successor or replacement; default INDEPENDENT_HANDOFF. */
  continuationPolicy?: ContinuationPolicy | null | undefined;
  /** Existing todos of the goal, at most 50. A cycle is refused. */
  dependsOn?: Array<string | number> | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** 0-1000, higher first; default 0. Orders work; never bypasses a guard. */
  priority?: number | null | undefined;
  /** A capability the executing agent must declare. */
  requiredCapability?: string | null | undefined;
  /** `kind:granularity:scopeKey`, e.g. `public_claim:action:bilingual_homepage`; at most 20. */
  requiredDecisionScopes?: Array<string> | null | undefined;
  /** Conditions that must all hold: `todo_done:<todo id>`, `gate_resolved:<gate id>`, `capacity_available:<capability>`, `pr_merged:<owner/repo>#<n>` (GitHub) or `pr_merged:git:<host>/<path>#<n>`; a bare `pr_merged:#<n>` only with a taskRepository. */
  resumeWhen?: Array<string> | null | undefined;
  /** Its class, given explicitly. */
  taskClass: TaskClass;
  /** The repository it writes to, without credentials: `git:github.com/owner/repo` (an https or `git@host:` URL is accepted and stored in that form; a URL with credentials is refused). Selects the repository; grants no write authority. */
  taskRepository?: string | null | undefined;
  /** Up to 200 characters. */
  title: string;
  /** Relative paths or globs it writes, e.g. `src/**`; at most 20. Globs are `*` (within a segment), `?` and `**` (any number of segments); a plain path also covers what lies beneath it. Brackets, braces, negation, backslashes and commas are refused; `./` and repeated slashes are dropped. */
  writeScope?: Array<string> | null | undefined;
};

/** Whether a credential stands for its caller now. Anything but ACTIVE is refused with UNAUTHENTICATED, as an unknown token is. */
export const CredentialStatus = {
  /** It stands for its caller. */
  Active: 'ACTIVE',
  /** A PEER credential whose agent is retired (or no longer registered). Not revoked: the agent being retired is the reason. */
  AgentRetired: 'AGENT_RETIRED',
  /** Its `expiresAt` has passed. It never becomes active again. */
  Expired: 'EXPIRED',
  /** Revoked or rotated (`revokedAt`). It never becomes active again. */
  Revoked: 'REVOKED'
} as const;

export type CredentialStatus = typeof CredentialStatus[keyof typeof CredentialStatus];
/** Where the acting agent runs in the goal; replaces its earlier declaration. */
export type DeclareWorkspaceInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** The checkout's repository, without credentials: `git:github.com/owner/repo` (an https or `git@host:` URL is accepted and stored in that form). */
  repository: string;
  /** The commit checked out: 7 to 64 hex digits. */
  revision: string;
  /** LINKED (a worktree of its own) or CANONICAL (the shared checkout). */
  worktree: WorktreeKind;
};

/** Defers (or blocks) a todo until its resume conditions hold. */
export type DeferTodoInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** Why, up to 500 characters. */
  reason?: string | null | undefined;
  /** At least one condition; replaces the todo's. Conditions that must all hold: `todo_done:<todo id>`, `gate_resolved:<gate id>`, `capacity_available:<capability>`, `pr_merged:<owner/repo>#<n>` (GitHub) or `pr_merged:git:<host>/<path>#<n>`; a bare `pr_merged:#<n>` only with a taskRepository. */
  resumeWhen: Array<string>;
  /** The todo. */
  todoId: string | number;
};

/** Let an agent of `agentGoalId` also act in `goalId`. */
export type DelegateGoalInput = {
  /** The goal the agent is registered to. */
  agentGoalId: string | number;
  /** The agent. */
  agentId: string | number;
  /** The goal being delegated. */
  goalId: string | number;
};

/** A bounded request or context for one agent. */
export type DeliverInput = {
  /** How long activity may take before the outcome reads STALLED: at most timeoutMs; default the smaller of 600000 and timeoutMs (then it expires rather than stalls). */
  activityWindowMs?: number | null | undefined;
  /** Up to 16384 bytes (UTF-8). Larger content belongs in a durable artifact you reference. */
  body: string;
  /** The goal. */
  goalId: string | number;
  /** Up to 128 characters, unique per sender and goal. A retry with it returns the original; nothing is ever resent. */
  idempotencyKey: string;
  /** REQUEST or CONTEXT. */
  kind: DeliveryKind;
  /** The message this answers (one you sent or received). There is no "latest". */
  replyTo?: string | number | null | undefined;
  /** Up to 200 characters; shown as evidence. */
  subject: string;
  /** A thread to join; with replyTo it must be that message thread. */
  threadId?: string | number | null | undefined;
  /** How long you care: activity after it does not count (default 3600000, at most 86400000). */
  timeoutMs?: number | null | undefined;
  /** The recipient agent. Omit only with a primary peer or exactly one connected peer in your roster; otherwise the refusal lists the choices. */
  to?: string | number | null | undefined;
  /** The todo it is about. Names it; claims nothing. */
  todoId?: string | number | null | undefined;
};

/** Which of an agent's deliveries: addressed to it, sent by it, or both. */
export const DeliveryDirection = {
  /** Either. */
  Both: 'BOTH',
  /** Sent by the agent (as a PEER of this goal). Deliveries from a steward or admin are never FROM an agent. */
  From: 'FROM',
  /** Addressed to the agent (its inbox), whoever sent them. */
  To: 'TO'
} as const;

export type DeliveryDirection = typeof DeliveryDirection[keyof typeof DeliveryDirection];
/** A field of a delivery request, as the sender passed it. */
export const DeliveryField = {
  /** `body`. */
  Body: 'BODY',
  /** `kind`. */
  Kind: 'KIND',
  /** `replyTo`. */
  ReplyTo: 'REPLY_TO',
  /** `subject` (trimmed). */
  Subject: 'SUBJECT',
  /** `threadId` as passed (not as derived). */
  ThreadId: 'THREAD_ID',
  /** `to` (null when the roster chose the target). */
  To: 'TO',
  /** `todoId`. */
  TodoId: 'TODO_ID'
} as const;

export type DeliveryField = typeof DeliveryField[keyof typeof DeliveryField];
/** What the sender hands over. Neither kind is a work edit, a claim or an order. */
export const DeliveryKind = {
  /** Information the recipient may use. Not a request for a reply. */
  Context: 'CONTEXT',
  /** Asks the recipient to do or answer something. Not an assignment: it grants nothing. */
  Request: 'REQUEST'
} as const;

export type DeliveryKind = typeof DeliveryKind[keyof typeof DeliveryKind];
/** What this delivery cannot tell its sender. */
export const DeliveryLimitation = {
  /** The recipient was not pinned (see pin.state): the outcome stays SUBMITTED. Not a stall: use receipts and replies. */
  ActivityNotObservable: 'ACTIVITY_NOT_OBSERVABLE'
} as const;

export type DeliveryLimitation = typeof DeliveryLimitation[keyof typeof DeliveryLimitation];
/** Why a delivery listing may hold fewer rows than the agent has. */
export const DeliveryListingLimitation = {
  /** A PEER asked about another agent: it sees only the deliveries it sent to or received from that agent. The agent's other traffic is not shown, not absent. */
  OnlyCallersOwnDeliveries: 'ONLY_CALLERS_OWN_DELIVERIES'
} as const;

export type DeliveryListingLimitation = typeof DeliveryListingLimitation[keyof typeof DeliveryListingLimitation];
/** Why a target was not ready. */
export const DeliveryNotReadyReason = {
  /** No `to`, and the caller roster has neither a primary nor a connected peer: addPeer or name `to`. */
  NoConnectedPeer: 'NO_CONNECTED_PEER',
  /** The agent was retired: no longer a member, it will not read its inbox. */
  TargetRetired: 'TARGET_RETIRED'
} as const;

export type DeliveryNotReadyReason = typeof DeliveryNotReadyReason[keyof typeof DeliveryNotReadyReason];
/** Why a notice was not recorded (nothing was written). */
export const DeliveryNoticeRefusalReason = {
  /** This provider last reported the recipient BLOCKED there: a question or approval prompt is never a safe point. */
  AgentBlocked: 'AGENT_BLOCKED',
  /** A TERMINAL_NOTICE (or TERMINAL_SIGNAL) was already recorded for this delivery: each is given at most once per delivery. */
  AlreadyNotified: 'ALREADY_NOTIFIED',
  /** The recipient already resolved the message: there is nothing to tell it. */
  AlreadyProcessed: 'ALREADY_PROCESSED',
  /** This provider does not see the delivery's recipient at that location now (no presence row of its current instance, or the occupant ended). */
  NotProvidersAgent: 'NOT_PROVIDERS_AGENT',
  /** No delivery with this id in this goal. */
  UnknownDelivery: 'UNKNOWN_DELIVERY'
} as const;

export type DeliveryNoticeRefusalReason = typeof DeliveryNoticeRefusalReason[keyof typeof DeliveryNoticeRefusalReason];
/** How a recipient was told about a delivery at a safe point. */
export const DeliveryNoticeVia = {
  /** The agent's own lifecycle hook handed the message over at a turn boundary (Claude Code's Stop hook answering `decision: block` with the message), through its provider. */
  LifecycleHook: 'LIFECYCLE_HOOK',
  /** The terminal provider typed a one-line notice ("N unread messages: run switchboard next") at a recognised agent's own idle prompt with an empty input line. */
  TerminalNotice: 'TERMINAL_NOTICE',
  /** The terminal provider could not type safely there (not a recognised agent's prompt, or a prompt asking a question), so it showed the person a message in tmux (display-message, the pane option @switchboard_unread) without touching the pane's input. The agent itself was not told: not a notification, and it does not set notifiedAt. */
  TerminalSignal: 'TERMINAL_SIGNAL'
} as const;

export type DeliveryNoticeVia = typeof DeliveryNoticeVia[keyof typeof DeliveryNoticeVia];
/** What is known about a delivery after submission. None of these says the request was done, or that the recipient read it (see receipt). */
export const DeliveryOutcome = {
  /** The pinned occupant went WORKING or BLOCKED after submission, before the deadline. The weaker-but-real signal: not proof it is working on this request. */
  ActivityObserved: 'ACTIVITY_OBSERVED',
  /** The sender's timeout elapsed with no activity observed. Not proof of non-delivery: the message stays in the inbox, and nothing resends it. */
  Expired: 'EXPIRED',
  /** No activity within the activity window. An observation, not the end: later activity before the deadline still upgrades it. Not proof the request was lost: inspect before repeating it. */
  Stalled: 'STALLED',
  /** Durably written, in order, to the recipient inbox. Not execution: nothing is known of the recipient yet (or, with limitation ACTIVITY_NOT_OBSERVABLE, ever will be). */
  Submitted: 'SUBMITTED',
  /** The pinned occupant disappeared, or its provider lost sight of it (see reason). Not a refusal: the message stays in the inbox for whoever is the agent later. */
  Unreachable: 'UNREACHABLE'
} as const;

export type DeliveryOutcome = typeof DeliveryOutcome[keyof typeof DeliveryOutcome];
/** How the pinned occupant disappeared or was lost from sight (UNREACHABLE only). */
export const DeliveryOutcomeReason = {
  /** The recipient's presence lapsed (its provider stopped reporting it, restarted, or lost its credential; the change at `seq` names the gap): nothing more can be observed. Not a statement that the recipient stopped. */
  CoverageLost: 'COVERAGE_LOST',
  /** The provider reported the pinned occupant UNREACHABLE. */
  LivenessUnreachable: 'LIVENESS_UNREACHABLE',
  /** Another occupant appeared at the pinned location. A replacement is never the target. */
  PinnedOccupantReplaced: 'PINNED_OCCUPANT_REPLACED',
  /** The provider reported the pinned occupant gone. */
  PresenceEnded: 'PRESENCE_ENDED'
} as const;

export type DeliveryOutcomeReason = typeof DeliveryOutcomeReason[keyof typeof DeliveryOutcomeReason];
/** Whether the recipient could be pinned at submission, so activity can be observed. */
export const DeliveryPinState = {
  /** The recipient's presence had lapsed at submission (see CoverageGap): its provider could not see it. Not absence: it is still a delivery target. */
  CoverageLost: 'COVERAGE_LOST',
  /** No provider saw the recipient at submission. Not absence: it is still a delivery target. */
  NoPresenceAtSubmission: 'NO_PRESENCE_AT_SUBMISSION',
  /** No presence provider reports for this goal. */
  NoProvider: 'NO_PROVIDER',
  /** Pinned to its current location and occupant, with a baseline. */
  Pinned: 'PINNED',
  /** The recipient's provider does not declare pinned-wait support, so no change can be trusted. */
  ProviderWithoutPinnedWaits: 'PROVIDER_WITHOUT_PINNED_WAITS'
} as const;

export type DeliveryPinState = typeof DeliveryPinState[keyof typeof DeliveryPinState];
/** Why a delivery was refused before anything was written (no row, no event). */
export const DeliveryRefusalReason = {
  /** The recipient is at a question or approval gate (presence BLOCKED). Resolving that gate is its owner's, not the sender's. */
  AgentBlocked: 'AGENT_BLOCKED',
  /** No `to`, no primary peer, and several connected peers: name one of `choices`. Never a guess. */
  AmbiguousTarget: 'AMBIGUOUS_TARGET',
  /** The target cannot receive now (see notReadyReason). */
  NotReady: 'NOT_READY',
  /** The goal is not in the caller's scope (see scopeGap); says nothing about its existence. */
  ScopeGap: 'SCOPE_GAP',
  /** No agent with that id was ever registered to the goal. */
  UnknownTarget: 'UNKNOWN_TARGET'
} as const;

export type DeliveryRefusalReason = typeof DeliveryRefusalReason[keyof typeof DeliveryRefusalReason];
/** What a directory packet cannot tell, stated instead of implied. */
export const DirectoryLimitation = {
  /** The caller is not an agent of this goal, so nothing is relative to a caller identity. */
  CallerIdentityNotSupplied: 'CALLER_IDENTITY_NOT_SUPPLIED',
  /** Lease state could not be read (not emitted while leases are projected). */
  LeaseStateNotProjected: 'LEASE_STATE_NOT_PROJECTED',
  /** Presence annotates rows; it is not evidence of progress. */
  PresenceIsAdvisory: 'PRESENCE_IS_ADVISORY',
  /** No provider reports for this goal: no row has presence, which says nothing about whether agents run. */
  PresenceProviderUnavailable: 'PRESENCE_PROVIDER_UNAVAILABLE',
  /** Some presence was reported by a provider instance that has since restarted. */
  PresenceStaleAfterProviderRestart: 'PRESENCE_STALE_AFTER_PROVIDER_RESTART',
  /** More agents than `limit`: see omittedRowCount. Not a complete listing. */
  RowsTruncatedAtCap: 'ROWS_TRUNCATED_AT_CAP'
} as const;

export type DirectoryLimitation = typeof DirectoryLimitation[keyof typeof DirectoryLimitation];
/** What a discovery answer cannot contain, stated rather than implied. */
export const DiscoveryLimitation = {
  /** Presence annotates; it never creates, connects or ranks an agent. */
  PresenceIsAdvisory: 'PRESENCE_IS_ADVISORY',
  /** No provider reports for this goal: freshness is UNKNOWN for all. */
  PresenceProviderUnavailable: 'PRESENCE_PROVIDER_UNAVAILABLE'
} as const;

export type DiscoveryLimitation = typeof DiscoveryLimitation[keyof typeof DiscoveryLimitation];
/** Where the caller could know an agent from. None of these connects or trusts it. */
export const DiscoverySource = {
  /** The caller exchanged a delivery with it in this goal. */
  Message: 'MESSAGE',
  /** A provider has reported it (now or before). Advisory. */
  Presence: 'PRESENCE',
  /** Registered to the goal (always present: the registry is the identity). */
  Registry: 'REGISTRY'
} as const;

export type DiscoverySource = typeof DiscoverySource[keyof typeof DiscoverySource];
/** The occupant of a location is gone. */
export type EndPresenceInput = {
  /** The agent. */
  agentId: string | number;
  /** The goal. */
  goalId: string | number;
  /** When it was seen gone. */
  observedAt: string;
  /** The location. */
  providerSessionRef: string;
  /** The provider's sequence. */
  reportSeq: string;
};

/** How fresh an evidence ref was when the work was handed off. */
export const EvidenceFreshness = {
  /** Recorded at or after the sender declared the workspace (revision) it handed off from. */
  Fresh: 'FRESH',
  /** Recorded before the sender declared that workspace: it may not hold for the revision handed off; validate again. */
  Stale: 'STALE',
  /** The sender declared no workspace, so the revision it held cannot be compared. */
  Unknown: 'UNKNOWN'
} as const;

export type EvidenceFreshness = typeof EvidenceFreshness[keyof typeof EvidenceFreshness];
/** An external fact a resume condition can name. */
export const ExternalEventKind = {
  /** A pull request was merged in a repository; satisfies `pr_merged:` conditions naming that repository and number. */
  PrMerged: 'PR_MERGED'
} as const;

export type ExternalEventKind = typeof ExternalEventKind[keyof typeof ExternalEventKind];
/** How current what is known of an agent is. Never a statement about its work. */
export const Freshness = {
  /** A provider reports it now, within its TTL. */
  Fresh: 'FRESH',
  /** What is known is old or ended (see staleReason). Not gone: it may still read its inbox. */
  Stale: 'STALE',
  /** No provider sees it (or cannot classify it). Not absence. */
  Unknown: 'UNKNOWN'
} as const;

export type Freshness = typeof Freshness[keyof typeof Freshness];
/** Why a live todo is not runnable for an agent. Guards are listed in this order, which is the order they are checked. */
export const FrontierGuardKind = {
  /** The agent has not declared the capability the todo requires. */
  Capability: 'CAPABILITY',
  /** Another agent claims it (the owner is named). */
  ClaimedByOther: 'CLAIMED_BY_OTHER',
  /** An open (or denied) gate covers a decision scope the todo requires. Priority never bypasses it; a claim or a lease does not either. */
  DecisionScope: 'DECISION_SCOPE',
  /** A todo in `dependsOn` is not done (following supersede lineage to its replacement). */
  Dependency: 'DEPENDENCY',
  /** Another agent holds an active lease on it. */
  LeaseHeld: 'LEASE_HELD',
  /** A `resumeWhen` condition does not hold yet. */
  ResumeCondition: 'RESUME_CONDITION',
  /** Deferred and its resume condition now holds: it may be out of date; replan, then resume or supersede it. */
  Stale: 'STALE',
  /** A repository-writing todo (a taskRepository and a write scope) and the agent's declared workspace does not do: none declared, another repository, or the canonical checkout (see `workspaceReason`). Independent of DECISION_SCOPE and CAPABILITY: none implies another. */
  Workspace: 'WORKSPACE',
  /** Another agent claims a live todo of the same repository whose write scope overlaps this one (one guard per such agent, naming its earliest such claim). Of two overlapping claimed todos only the later claim is held back. A claim is not a lock: this is the frontier saying the two should not run at once. */
  WriteScopeConflict: 'WRITE_SCOPE_CONFLICT'
} as const;

export type FrontierGuardKind = typeof FrontierGuardKind[keyof typeof FrontierGuardKind];
/** Why a gate applies to a todo. */
export const GateApplication = {
  /** The gate covers a decision scope the todo requires. */
  CoversRequiredScope: 'COVERS_REQUIRED_SCOPE',
  /** A `gate_resolved:` condition of the todo names the gate. */
  ResumeCondition: 'RESUME_CONDITION'
} as const;

export type GateApplication = typeof GateApplication[keyof typeof GateApplication];
/** The decision on a gate. */
export const GateDecision = {
  /** Refused: the gate keeps covering its scope (until it expires); covered work must be superseded or closed. */
  Denied: 'DENIED',
  /** Authorized: the gate covers nothing any more. */
  Granted: 'GRANTED'
} as const;

export type GateDecision = typeof GateDecision[keyof typeof GateDecision];
/** How much a decision scope spans, narrowest first. A gate covers a required scope of its kind when: ACTION — the same ACTION key; LANE — the same LANE key, or an ACTION key inside the lane (`<lane>/…`); GOAL, PROJECT, GLOBAL — every scope of the kind in the goal (a gate never reaches another goal). A narrower gate never covers a broader requirement. */
export const GateGranularity = {
  /** One operation, named by its key. */
  Action: 'ACTION',
  /** Asked globally; within Switchboard it covers the goal. */
  Global: 'GLOBAL',
  /** Everything of this kind in the goal. */
  Goal: 'GOAL',
  /** A stream of work; its actions have keys `<lane>/<action>`. */
  Lane: 'LANE',
  /** Asked project-wide; within Switchboard it covers the goal. */
  Project: 'PROJECT'
} as const;

export type GateGranularity = typeof GateGranularity[keyof typeof GateGranularity];
/** What kind of authority a gate asks for (the first part of a decision scope). */
export const GateKind = {
  /** Choosing the direction of the work. */
  Direction: 'DIRECTION',
  /** Reading private material. */
  PrivateRead: 'PRIVATE_READ',
  /** Touching production. */
  Production: 'PRODUCTION',
  /** Saying something in public (publishing, announcing). */
  PublicClaim: 'PUBLIC_CLAIM',
  /** Spending a resource (money, quota, hardware). */
  Resource: 'RESOURCE',
  /** Writing outside the agreed write scope. */
  WriteScope: 'WRITE_SCOPE'
} as const;

export type GateKind = typeof GateKind[keyof typeof GateKind];
/** A gate now, computed from its decision and expiry at read time. */
export const GateState = {
  /** Denied; still covers its scope. */
  Denied: 'DENIED',
  /** Past `expiresAt`: covers nothing, whatever the decision. */
  Expired: 'EXPIRED',
  /** Granted; covers nothing. */
  Granted: 'GRANTED',
  /** Waiting for a decision; covers its scope. */
  Open: 'OPEN'
} as const;

export type GateState = typeof GateState[keyof typeof GateState];
/** What a goal-level row changes. Goal-level rows appear in every agent's ledger of the goal; they are marked at write (global gates by the gateway, the rest by an ADMIN or STEWARD) and never inferred at read. */
export const GoalChange = {
  /** What counts as done for the goal changed. */
  Acceptance: 'ACCEPTANCE',
  /** A GOAL, PROJECT or GLOBAL gate opened or was decided. */
  GlobalGate: 'GLOBAL_GATE',
  /** The goal's active next action changed. */
  NextAction: 'NEXT_ACTION',
  /** Agents of the goal must replan (read their ledger, then checkpoint). */
  ReplanObligation: 'REPLAN_OBLIGATION',
  /** The goal's route (direction, order of lanes) changed. */
  Route: 'ROUTE'
} as const;

export type GoalChange = typeof GoalChange[keyof typeof GoalChange];
/** Why a goal may not be closed. goalClosure lists every reason that holds. */
export const GoalClosureReasonKind = {
  /** The goal is closed already (see `closure`). */
  AlreadyClosed: 'ALREADY_CLOSED',
  /** A todo was closed with no follow-up and records no reason for it (`todoId`). */
  ClosedWithoutReason: 'CLOSED_WITHOUT_REASON',
  /** An advancement todo is still OPEN or DEFERRED (`todoId`). */
  LiveAdvancementTodo: 'LIVE_ADVANCEMENT_TODO',
  /** A user gate, user action or blocker todo is still OPEN or DEFERRED (`todoId`). */
  LiveTodo: 'LIVE_TODO',
  /** A continuous monitor is live (open: due now; deferred: due again when its condition holds). Close it with no follow-up when monitoring ends. */
  MonitorDue: 'MONITOR_DUE',
  /** No acceptance evidence is recorded: a goal-level ACCEPTANCE ledger row citing evidence refs (recordEvent by an ADMIN or STEWARD). */
  NoAcceptanceEvidence: 'NO_ACCEPTANCE_EVIDENCE',
  /** A successor (created on completion) or a replacement (of a superseded todo) is still live (`todoId`). */
  PendingContinuation: 'PENDING_CONTINUATION',
  /** An active agent owes a digest-checked replan checkpoint (`agentId`, `obligations`): see replanObligations. */
  ReplanOwed: 'REPLAN_OWED',
  /** A gate is open: undecided and not expired (`gateId`). */
  UnresolvedGate: 'UNRESOLVED_GATE'
} as const;

export type GoalClosureReasonKind = typeof GoalClosureReasonKind[keyof typeof GoalClosureReasonKind];
/** Why a handoff was refused. Nothing was written. */
export const HandoffRefusalReason = {
  /** The CONTEXT delivery to the receiver was refused (`delivery` says why, e.g. AGENT_BLOCKED). */
  DeliveryRefused: 'DELIVERY_REFUSED',
  /** The receiver has not declared the capability the todo requires (`capability`). */
  ReceiverLacksCapability: 'RECEIVER_LACKS_CAPABILITY',
  /** `to` names no active agent of the goal. */
  UnknownReceiver: 'UNKNOWN_RECEIVER'
} as const;

export type HandoffRefusalReason = typeof HandoffRefusalReason[keyof typeof HandoffRefusalReason];
/** Whether a handoff is pending for an agent, judged from the ledger's rows alone. Not proof that anyone took or acted on the work. */
export const HandoffState = {
  /** A handoff to it is newer than its latest material row: it received work and has not recorded acting on it. */
  Incoming: 'INCOMING',
  /** No pending handoff: none names it, or it recorded material work after the latest one. */
  None: 'NONE',
  /** Its latest material row is a handoff it made to another agent: it has handed work off and done nothing material since. */
  Outgoing: 'OUTGOING'
} as const;

export type HandoffState = typeof HandoffState[keyof typeof HandoffState];
/** A bounded handoff: enough for the receiver to reconstruct the work without a transcript. */
export type HandoffTodoInput = {
  /** ADMIN/STEWARD: the agent handing off. A PEER hands off as itself. */
  agentId?: string | number | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** What to do next (at most 500 characters). */
  nextAction: string;
  /** What the packet leaves out or is private (at most 20 entries of 500 characters; empty when nothing is). */
  omitted: Array<string>;
  /** When to stop: done, or hand back (at most 500 characters). */
  stopCondition: string;
  /** The receiver (an active agent of the goal, declaring any capability the todo requires); it becomes the claimant. Omitted: the todo is left unclaimed for any qualified peer. */
  to?: string | number | null | undefined;
  /** The live todo to hand off. */
  todoId: string | number;
  /** How to tell the work is right (at most 500 characters). */
  validation: string;
};

/** What the credential binds. PEER: goalId + agentId. STEWARD: goalIds. PROVIDER: providerId + goalIds. ADMIN: nothing. */
export type IssueCredentialInput = {
  /** PEER: the agent. */
  agentId?: string | number | null | undefined;
  /** When it stops standing for its caller (it is then refused with UNAUTHENTICATED, and listed EXPIRED); a future instant. Omitted or null: it does not expire. */
  expiresAt?: string | null | undefined;
  /** PEER: the agent's goal. */
  goalId?: string | number | null | undefined;
  /** STEWARD and PROVIDER: existing goals. */
  goalIds?: Array<string | number> | null | undefined;
  /** The caller kind. */
  kind: CallerKind;
  /** Free text to recognise it by, up to 100 characters. */
  label?: string | null | undefined;
  /** PROVIDER: the provider it speaks for. */
  providerId?: string | number | null | undefined;
};

/** A lease now, computed from its expiry at read time (no background job). */
export const LeaseState = {
  /** Held and not expired. */
  Active: 'ACTIVE',
  /** Past its expiry: anyone may acquire a new one (a takeover); its holder may still renew while nobody has. */
  Expired: 'EXPIRED',
  /** No lease: never taken, released, or cleared when the todo left the frontier. */
  None: 'NONE'
} as const;

export type LeaseState = typeof LeaseState[keyof typeof LeaseState];
/** What a ledger row records. A kind, not a verdict: the row says what was observed. */
export const LedgerEventKind = {
  /** Something an agent cannot get past without help. Not a todo status. */
  Blocker: 'BLOCKER',
  /** A delivery to or from the agent, written only by deliveries (not yet wired). */
  Delivery: 'DELIVERY',
  /** An external fact (a pull request merged in a repository), written only by recordExternalEvent. What the recorder says it observed; Switchboard does not check the forge. */
  ExternalEvent: 'EXTERNAL_EVENT',
  /** A gate opened or was decided (openGate/resolveGate), or a host observed one. Not the decision itself: read `gates`. */
  Gate: 'GATE',
  /** The goal was closed, written only by closeGoal once goalClosure found no reason against it; its evidence refs are the acceptance refs cited. */
  GoalClosed: 'GOAL_CLOSED',
  /** Work handed from `agentId` to `relatedAgentId`. Records the intent; not proof the other agent took it. */
  Handoff: 'HANDOFF',
  /** A change of a projected state (status, frontier, route) worth replanning on. */
  Projection: 'PROJECTION',
  /** A host decided whether an agent lane should act now. Not an assignment. */
  QuotaShouldRun: 'QUOTA_SHOULD_RUN',
  /** A replan checkpoint, written only by recordReplanCheckpoint after its digest was verified. */
  Replan: 'REPLAN',
  /** A todo changed (every work-graph transition writes one) or an agent noted progress on it. Not proof the work is good. */
  TodoUpdate: 'TODO_UPDATE',
  /** A check ran on some work, with its outcome in `status`. Not a gate decision. */
  Validation: 'VALIDATION'
} as const;

export type LedgerEventKind = typeof LedgerEventKind[keyof typeof LedgerEventKind];
/** Which path wrote a row. */
export const LedgerEventSource = {
  /** Deliveries (not yet wired). */
  Delivery: 'DELIVERY',
  /** recordEvent, by an agent or a host (ADMIN/STEWARD). */
  Recorded: 'RECORDED',
  /** recordReplanCheckpoint, after its digest was verified. */
  ReplanCheckpoint: 'REPLAN_CHECKPOINT',
  /** A work-graph transition or gate change, in the same transaction as the change. */
  WorkGraph: 'WORK_GRAPH'
} as const;

export type LedgerEventSource = typeof LedgerEventSource[keyof typeof LedgerEventSource];
/** An action an agent must read its ledger before. */
export const LedgerReadPurpose = {
  /** Replanning on its own initiative. */
  AutonomousReplan: 'AUTONOMOUS_REPLAN',
  /** Handing work to another agent. */
  Handoff: 'HANDOFF',
  /** Planning the successor of finished or superseded work. */
  SuccessorReplan: 'SUCCESSOR_REPLAN'
} as const;

export type LedgerReadPurpose = typeof LedgerReadPurpose[keyof typeof LedgerReadPurpose];
/** Why a row is in this agent's ledger: the first scoping rule it meets, in this order. Not a priority. */
export const LedgerRelevance = {
  /** It is on a todo the agent claims (any status). */
  ClaimedTodo: 'CLAIMED_TODO',
  /** A goal-level row (see GoalChange), shown to every agent. */
  GoalLevel: 'GOAL_LEVEL',
  /** A handoff from or to the agent. */
  Handoff: 'HANDOFF',
  /** It is on an unclaimed live todo in the agent's lane (a writeScope under a path word of its vision roleScope). */
  LaneTodo: 'LANE_TODO',
  /** A material row that changes the agent's next action: on a todo its live work depends on or waits for, on a gate covering a scope its live work requires (or that it waits for), or naming it as relatedAgentId. */
  NextAction: 'NEXT_ACTION',
  /** The agent acted or recorded it (agentId is the agent). */
  Own: 'OWN'
} as const;

export type LedgerRelevance = typeof LedgerRelevance[keyof typeof LedgerRelevance];
/** Whether an agent is runnable now, as a provider sees it. Never an answer to "is its work done". */
export const Liveness = {
  /** At a question or approval gate. Not permission to answer the gate. */
  Blocked: 'BLOCKED',
  /** Settled and ready for input. Not task completion, not a closed todo. */
  Done: 'DONE',
  /** Ready for input. Not a delivered request, not an available lease. */
  Idle: 'IDLE',
  /** Cannot be classified (see coverageGap). Not completion, not absence of progress. */
  Unknown: 'UNKNOWN',
  /** Known to the provider but not reachable now. Not an empty lane. */
  Unreachable: 'UNREACHABLE',
  /** Observed executing. Not progress, not evidence of an outcome. */
  Working: 'WORKING'
} as const;

export type Liveness = typeof Liveness[keyof typeof Liveness];
/** One provider state and the liveness it maps to. */
export type LivenessMappingInput = {
  /** What it means here. */
  liveness: Liveness;
  /** The provider's own state name. */
  providerState: string;
};

/** Why there is no excerpt. */
export const ObservationGapReason = {
  /** The source is declared but nothing was captured for this agent yet. */
  NothingCaptured: 'NOTHING_CAPTURED',
  /** No provider reports for this goal: nothing can be observed. */
  NoProvider: 'NO_PROVIDER',
  /** No provider declared this source. */
  SourceNotDeclared: 'SOURCE_NOT_DECLARED'
} as const;

export type ObservationGapReason = typeof ObservationGapReason[keyof typeof ObservationGapReason];
/** Something an excerpt cannot contain, declared instead of silently missing. */
export const ObservationLimit = {
  /** Full-screen programs never enter scrollback. */
  AlternateScreenNotInScrollback: 'ALTERNATE_SCREEN_NOT_IN_SCROLLBACK',
  /** The machine is disconnected; the excerpt may be old. */
  Disconnected: 'DISCONNECTED',
  /** The provider restarted; output before that is gone. */
  ProviderRestarted: 'PROVIDER_RESTARTED',
  /** The screen was cleared; earlier output is gone. */
  ViewportCleared: 'VIEWPORT_CLEARED'
} as const;

export type ObservationLimit = typeof ObservationLimit[keyof typeof ObservationLimit];
/** Where an excerpt comes from. */
export const ObservationSource = {
  /** The snapshot the provider classified liveness from. */
  DetectionSnapshot: 'DETECTION_SNAPSHOT',
  /** Recent output, as wrapped on screen. */
  Recent: 'RECENT',
  /** Recent output, logical lines. */
  RecentUnwrapped: 'RECENT_UNWRAPPED',
  /** The rendered screen. */
  Viewport: 'VIEWPORT'
} as const;

export type ObservationSource = typeof ObservationSource[keyof typeof ObservationSource];
/** An observation source the provider can supply. */
export type ObservationSourceInput = {
  /** What it cannot recover. */
  limits: Array<ObservationLimit>;
  /** Most lines it keeps (1-10000). */
  maxLines: number;
  /** The source. */
  source: ObservationSource;
};

/** A decision a user or controller must make. */
export type OpenGateInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** In the future; after it the gate covers nothing. */
  expiresAt?: string | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** How much it spans. */
  granularity: GateGranularity;
  /** Kind of authority. */
  kind: GateKind;
  /** The question, up to 500 characters. */
  reason: string;
  /** Public-safe key: letters, digits, '.', '_', '-', '/' (lane/action), up to 100 characters. */
  scopeKey: string;
};

/** How much of other agents a packet shows. Never their rows. */
export const OtherAgentDetail = {
  /** One bounded otherAgentFrontier row per other agent. */
  CompressedFrontier: 'COMPRESSED_FRONTIER',
  /** Nothing (includeOtherAgentFrontier was false, or a scope gap). */
  Omitted: 'OMITTED'
} as const;

export type OtherAgentDetail = typeof OtherAgentDetail[keyof typeof OtherAgentDetail];
/** Which source decided the liveness: one source is the authority for a target at a time (lifecycle hooks while they report, else the program's own status signal, else screen patterns). Says how the provider knows, not how sure it is. */
export const PresenceBasis = {
  /** The agent runtime reported through a lifecycle hook. */
  LifecycleHook: 'LIFECYCLE_HOOK',
  /** The program announced its own state in its output (the OSC 7501 Program Status Protocol). Not a lifecycle hook and not a screen pattern. */
  ProgramStatus: 'PROGRAM_STATUS',
  /** The provider classified what the terminal shows (screen patterns). Not a statement by the agent. */
  ProviderDetection: 'PROVIDER_DETECTION',
  /** The agent said so through a channel of its own that the provider relays (neither a lifecycle hook nor OSC 7501). */
  SelfReport: 'SELF_REPORT'
} as const;

export type PresenceBasis = typeof PresenceBasis[keyof typeof PresenceBasis];
/** Why a presence or observation report was refused (nothing of it was written). */
export const PresenceRefusalReason = {
  /** No such active agent in the goal: a live session never creates an identity. */
  AgentNotRegistered: 'AGENT_NOT_REGISTERED',
  /** The goal is not one this provider credential and registration cover. */
  GoalNotInScope: 'GOAL_NOT_IN_SCOPE',
  /** A field of the report is malformed (too long, control characters, blockedKind without BLOCKED, …): `field` and `message` say which and why. */
  InvalidReport: 'INVALID_REPORT',
  /** endPresence for a location with no presence. */
  NoPresenceAtLocation: 'NO_PRESENCE_AT_LOCATION',
  /** Call registerProvider first. */
  ProviderNotRegistered: 'PROVIDER_NOT_REGISTERED'
} as const;

export type PresenceRefusalReason = typeof PresenceRefusalReason[keyof typeof PresenceRefusalReason];
/** One observation of one occupant at one location. */
export type PresenceReportInput = {
  /** A registered agent of the goal. */
  agentId: string | number;
  /** Which source decided. */
  basis: PresenceBasis;
  /** What a BLOCKED agent waits for. Only with liveness BLOCKED (refused otherwise); omit when the source does not say. */
  blockedKind?: BlockedKind | null | undefined;
  /** Which source decided and why, for people (e.g. "OSC 7501 blocked(permission)", "hook Notification permission_prompt", "screen pattern /Do you want to proceed/"): one line of plain text, at most 160 characters, no control characters; passes the privacy screen. Omit when there is nothing to say. */
  explain?: string | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** What the provider sees. */
  liveness: Liveness;
  /** When. */
  observedAt: string;
  /** Who occupies it (e.g. terminal id + name + agent kind). */
  occupantRef: string;
  /** The location, opaque. */
  providerSessionRef: string;
  /** The provider's own monotonic sequence; reports not above the last applied are ignored. */
  reportSeq: string;
};

/** A safe-point notice, as the provider that gave it saw it. */
export type RecordDeliveryNoticeInput = {
  /** The delivery the recipient was told about. */
  deliveryId: string | number;
  /** The goal of the delivery. */
  goalId: string | number;
  /** When it happened (default: now); at most a minute ahead of the gateway clock. */
  observedAt?: string | null | undefined;
  /** The location where it happened (the pane): the recipient's presence row of this provider there must be live and not BLOCKED. */
  providerSessionRef: string;
  /** What was shown, one line, up to 200 characters (screened). Never the body. */
  text?: string | null | undefined;
  /** How. */
  via: DeliveryNoticeVia;
};

/** One event. Free text is screened at write: credentials and local paths are redacted, and what redaction cannot make safe (logs, transcripts, absolute evidence refs) is refused as BAD_USER_INPUT with nothing written. */
export type RecordEventInput = {
  /** PEER: itself (or omit). ADMIN/STEWARD: an active agent of the goal it is about, or omit for a host row. */
  agentId?: string | number | null | undefined;
  /** A token of up to 64 letters, digits, '_', '.', ':' or '-'. */
  classification?: string | null | undefined;
  /** What it records. REPLAN and DELIVERY are refused (the gateway writes them). */
  eventKind: LedgerEventKind;
  /** At most 20 refs, each relative to the repository (no `..` above it) or an http(s) URL. Absolute local paths are refused. */
  evidenceRefs?: Array<string> | null | undefined;
  /** ADMIN/STEWARD only: marks the row goal-level (every agent sees it). */
  goalChange?: GoalChange | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** The counterpart (required for HANDOFF: who the work goes to); that agent’s ledger shows the row. */
  relatedAgentId?: string | number | null | undefined;
  /** A token, like classification. */
  status?: string | null | undefined;
  /** At most 500 characters and 8 lines: a summary, never the log itself. */
  summary: string;
  /** A todo of the goal it is on. */
  todoId?: string | number | null | undefined;
};

/** An external fact to record in a goal. */
export type RecordExternalEventInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** What happened. */
  kind: ExternalEventKind;
  /** When it was observed; not in the future. */
  observedAt: string;
  /** PR_MERGED: the pull request number (`123` or `#123`). */
  ref: string;
  /** The repository, without credentials: `git:github.com/owner/repo` (an https or `git@host:` URL is accepted and stored in that form; a URL with credentials is refused). */
  repository: string;
};

/** A new agent identity in a goal. */
export type RegisterAgentInput = {
  /** 1-64 letters, digits, ".", "_" or "-". */
  agentId: string | number;
  /** The model, up to 100 characters. */
  agentModel: string;
  /** The goal. */
  goalId: string | number;
  /** Where it runs, up to 100 characters. */
  hostSurface: string;
};

/** The provider contract. What is not declared is a typed gap later. */
export type RegisterProviderInput = {
  /** The machine it runs on (a host name or an IP address), shown with every presence it reports; omit to declare none. A provider that moves to another machine registers again with the new one. */
  host?: string | null | undefined;
  /** What happens to location ids after a move, close or restart. */
  identifierRules: string;
  /** This provider process; a new value marks earlier presence stale. */
  instanceId: string;
  /** Its states mapped to Liveness. */
  livenessMapping: Array<LivenessMappingInput>;
  /** How a caller proves it is inside the space. */
  membershipProof: string;
  /** Sources with line bounds and unrecoverable cases. */
  observationSources: Array<ObservationSourceInput>;
  /** What survives a client detach, a server restart, a machine restart. */
  persistence: string;
  /** How long a report stays current (1000-86400000). */
  presenceTtlMs: number;
  /** Must match the credential's providerId. */
  providerId: string | number;
  /** The rollup it publishes; omit to declare none. */
  rollup?: string | null | undefined;
  /** Whether its report sequence is monotonic per location, so pinned waits can rely on it. */
  supportsPinnedWaits: boolean;
};

/** Ends a lease: compare-and-set on its fence. */
export type ReleaseLeaseInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** The fence acquireLease returned. */
  fence: string;
  /** The goal. */
  goalId: string | number;
  /** The todo. */
  todoId: string | number;
};

/** Extends a lease: compare-and-set on its fence. */
export type RenewLeaseInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** The fence acquireLease returned. */
  fence: string;
  /** The goal. */
  goalId: string | number;
  /** The todo. */
  todoId: string | number;
  /** New time to live from now, 1 ms to 24 h. */
  ttlMs: number;
};

/** The bounded replan delta. The summary is screened like any ledger row; the vision fields are for PATCHED only. */
export type ReplanDeltaInput = {
  /** PATCHED: the new acceptance summary, ≤ 500. */
  acceptanceSummary?: string | null | undefined;
  /** Relative refs, as in recordEvent. */
  evidenceRefs?: Array<string> | null | undefined;
  /** PATCHED: the new replan trigger, ≤ 500. */
  replanTriggerSummary?: string | null | undefined;
  /** PATCHED: the new roleScope (its lane), ≤ 200. */
  roleScope?: string | null | undefined;
  /** What changed and why, at most 500 characters and 8 lines. */
  summary: string;
  /** PATCHED: the new vision summary, ≤ 500. */
  visionSummary?: string | null | undefined;
};

/** What a replan checkpoint did to the agent’s direction. */
export const ReplanKind = {
  /** The direction changed: the delta's vision fields replace the agent's vision. */
  Patched: 'PATCHED',
  /** The direction stands after reading the ledger. */
  Preserved: 'PRESERVED',
  /** The lane is intentionally closed (the delta says why). */
  Retired: 'RETIRED',
  /** The direction is replaced by a successor todo or a handoff route. */
  Superseded: 'SUPERSEDED'
} as const;

export type ReplanKind = typeof ReplanKind[keyof typeof ReplanKind];
/** Why an agent owes a replan checkpoint. Only recordReplanCheckpoint, citing the digest of a current read of its ledger, clears one; an acknowledgement recorded any other way clears nothing. */
export const ReplanObligationKind = {
  /** Work was handed to the agent after its last checkpoint. */
  HandoffReceived: 'HANDOFF_RECEIVED',
  /** Material rows (status changes, gates, blockers, validations, handoffs, goal-level rows) reached the agent's ledger after its last checkpoint, or ever when it has none. */
  MaterialSinceCheckpoint: 'MATERIAL_SINCE_CHECKPOINT',
  /** The agent has a vision and has never recorded a replan checkpoint (also shown on its directory row and its frontier). */
  VisionCheckpointMissing: 'VISION_CHECKPOINT_MISSING'
} as const;

export type ReplanObligationKind = typeof ReplanObligationKind[keyof typeof ReplanObligationKind];
/** The latest excerpt of one source for one agent. */
export type ReportObservationInput = {
  /** The agent. */
  agentId: string | number;
  /** When it was captured. */
  capturedAt: string;
  /** The goal. */
  goalId: string | number;
  /** Limits that apply to this capture, beyond the declared ones. */
  limits?: Array<ObservationLimit> | null | undefined;
  /** The excerpt; cut to the declared bound, and stored after the privacy screen (credentials and absolute local paths become `[redacted:…]` markers). */
  lines: Array<string>;
  /** A declared source. */
  source: ObservationSource;
};

/** The decision on a gate. */
export type ResolveGateInput = {
  /** The decision. */
  decision: GateDecision;
  /** The gate. */
  gateId: string | number;
  /** The goal. */
  goalId: string | number;
  /** What the decider says, up to 500 characters. */
  note?: string | null | undefined;
};

/** Where a connected peer stands. */
export const RosterPeerStatus = {
  /** In the roster and registered: a possible target. Not presence: it may not be running. */
  Connected: 'CONNECTED',
  /** In the roster, but the agent was retired since: not a delivery target. */
  Stale: 'STALE'
} as const;

export type RosterPeerStatus = typeof RosterPeerStatus[keyof typeof RosterPeerStatus];
/** The explicit act that connected a peer. Discovery is never one. */
export const RosterSource = {
  /** addPeer. */
  AddPeer: 'ADD_PEER',
  /** setPrimaryPeer on a peer not yet connected. */
  SetPrimaryPeer: 'SET_PRIMARY_PEER'
} as const;

export type RosterSource = typeof RosterSource[keyof typeof RosterSource];
/** Why a goal is not visible to the caller. */
export const ScopeGapReason = {
  /** The credential does not cover this goal. Also the answer for a goal that does not exist: the two are deliberately indistinguishable. */
  AudienceNotAuthorized: 'AUDIENCE_NOT_AUTHORIZED',
  /** A PEER asked for another agent's evidence ledger (or its stream): a peer reads only its own. The goal is in scope; this says nothing about the other agent's rows. */
  NotOwnLedger: 'NOT_OWN_LEDGER',
  /** Membership could not be classified. Never the answer to a request without a credential: that is refused before any scope check, with HTTP 401 and UNAUTHENTICATED. */
  Unknown: 'UNKNOWN'
} as const;

export type ScopeGapReason = typeof ScopeGapReason[keyof typeof ScopeGapReason];
/** Replaces the acting agent's declared capabilities in the goal. */
export type SetCapabilitiesInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** Names (letters, digits, '.', '_', '-'), at most 32; an empty list declares none. */
  capabilities: Array<string>;
  /** The goal. */
  goalId: string | number;
};

/** Replaces a live todo's dependencies (a replanning write). */
export type SetDependenciesInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** Existing todos of the goal, at most 50. A cycle is refused. */
  dependsOn: Array<string | number>;
  /** The goal. */
  goalId: string | number;
  /** The todo. */
  todoId: string | number;
};

/** Replaces the acting agent's vision in the goal. */
export type SetVisionInput = {
  /** Up to 500 characters. */
  acceptanceSummary: string;
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** Up to 500 characters. */
  replanTriggerSummary: string;
  /** Its role, up to 200 characters. Words that are relative paths name its lane (see Vision.roleScope). */
  roleScope: string;
  /** Up to 500 characters. */
  visionSummary: string;
};

/** Why an agent reads STALE. */
export const StaleReason = {
  /** Retired from the goal. */
  AgentRetired: 'AGENT_RETIRED',
  /** Its last presence was ended by the provider. */
  PresenceEnded: 'PRESENCE_ENDED',
  /** No report within the provider's TTL. */
  PresenceTtlExpired: 'PRESENCE_TTL_EXPIRED',
  /** Reported by a provider instance that has since restarted. */
  ProviderRestarted: 'PROVIDER_RESTARTED',
  /** The provider reports it UNREACHABLE. */
  Unreachable: 'UNREACHABLE'
} as const;

export type StaleReason = typeof StaleReason[keyof typeof StaleReason];
/** Replaces a todo. Give exactly one of `replacement` or `replacementId`. */
export type SupersedeTodoInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** Why, up to 500 characters. */
  reason: string;
  /** A new todo to replace it. */
  replacement?: TodoSpecInput | null | undefined;
  /** An existing live todo of the goal that replaces it. */
  replacementId?: string | number | null | undefined;
  /** The todo to supersede. */
  todoId: string | number;
};

/** What kind of work a todo is. Always given explicitly by whoever creates it; never inferred from its title. */
export const TaskClass = {
  /** Agent work that advances the goal: implementation, docs, analysis, repair. */
  AdvancementTask: 'ADVANCEMENT_TASK',
  /** An executable condition is missing and needs a concrete recovery path. */
  Blocker: 'BLOCKER',
  /** Observe an external condition on a cadence; advance only on material change. */
  ContinuousMonitor: 'CONTINUOUS_MONITOR',
  /** Something a person should do; independent agent work need not stop for it. */
  UserAction: 'USER_ACTION',
  /** A user/controller decision without which related work cannot legally go on. */
  UserGate: 'USER_GATE'
} as const;

export type TaskClass = typeof TaskClass[keyof typeof TaskClass];
/** One todo, and (ADMIN/STEWARD) the agent to act for. */
export type TodoActionInput = {
  /** ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself. */
  agentId?: string | number | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** The todo. */
  todoId: string | number;
};

/** A todo to create as a successor or a replacement (in the same goal). */
export type TodoSpecInput = {
  /** Who owns its successor or replacement; default INDEPENDENT_HANDOFF. */
  continuationPolicy?: ContinuationPolicy | null | undefined;
  /** Existing todos of the goal, at most 50. A cycle is refused. */
  dependsOn?: Array<string | number> | null | undefined;
  /** 0-1000, higher first; default 0. Orders work; never bypasses a guard. */
  priority?: number | null | undefined;
  /** A capability the executing agent must declare. */
  requiredCapability?: string | null | undefined;
  /** `kind:granularity:scopeKey`, e.g. `public_claim:action:bilingual_homepage`; at most 20. */
  requiredDecisionScopes?: Array<string> | null | undefined;
  /** Conditions that must all hold: `todo_done:<todo id>`, `gate_resolved:<gate id>`, `capacity_available:<capability>`, `pr_merged:<owner/repo>#<n>` (GitHub) or `pr_merged:git:<host>/<path>#<n>`; a bare `pr_merged:#<n>` only with a taskRepository. */
  resumeWhen?: Array<string> | null | undefined;
  /** Its class, given explicitly. */
  taskClass: TaskClass;
  /** The repository it writes to, without credentials: `git:github.com/owner/repo` (an https or `git@host:` URL is accepted and stored in that form; a URL with credentials is refused). Selects the repository; grants no write authority. */
  taskRepository?: string | null | undefined;
  /** Up to 200 characters. */
  title: string;
  /** Relative paths or globs it writes, e.g. `src/**`; at most 20. Globs are `*` (within a segment), `?` and `**` (any number of segments); a plain path also covers what lies beneath it. Brackets, braces, negation, backslashes and commas are refused; `./` and repeated slashes are dropped. */
  writeScope?: Array<string> | null | undefined;
};

/** Where a todo is in its lifecycle. OPEN and DEFERRED are live (on the frontier); the other three are final. There is no delete. */
export const TodoStatus = {
  /** Closed with a stated reason and no successor. Not done either. */
  ClosedNoFollowUp: 'CLOSED_NO_FOLLOW_UP',
  /** Deferred or blocked until its `resumeWhen` conditions hold; then it must be resumed (or superseded) after replanning. */
  Deferred: 'DEFERRED',
  /** Completed with evidence. Says nothing about the goal being done. */
  Done: 'DONE',
  /** Live. Not the same as runnable: see `frontier`. */
  Open: 'OPEN',
  /** Replaced by `supersededBy`. Never counts as done: dependents wait for the replacement. */
  Superseded: 'SUPERSEDED'
} as const;

export type TodoStatus = typeof TodoStatus[keyof typeof TodoStatus];
/** A governed write on a todo. */
export const TodoTransitionKind = {
  /** acquireLease. */
  AcquireLease: 'ACQUIRE_LEASE',
  /** claimTodo. */
  Claim: 'CLAIM',
  /** closeNoFollowUp. */
  CloseNoFollowUp: 'CLOSE_NO_FOLLOW_UP',
  /** completeTodo. */
  Complete: 'COMPLETE',
  /** createTodo, or a successor/replacement created by complete/supersede. */
  Create: 'CREATE',
  /** deferTodo. */
  Defer: 'DEFER',
  /** handoffTodo: the claim moved to the receiver (or was dropped for any qualified peer); the lease ended, never transferred. */
  Handoff: 'HANDOFF',
  /** releaseClaim. */
  ReleaseClaim: 'RELEASE_CLAIM',
  /** releaseLease. */
  ReleaseLease: 'RELEASE_LEASE',
  /** renewLease. */
  RenewLease: 'RENEW_LEASE',
  /** resumeTodo. */
  Resume: 'RESUME',
  /** setDependencies. */
  SetDependencies: 'SET_DEPENDENCIES',
  /** supersedeTodo. */
  Supersede: 'SUPERSEDE'
} as const;

export type TodoTransitionKind = typeof TodoTransitionKind[keyof typeof TodoTransitionKind];
/** What to wait for. Name one agent (agentId) or several (agentIds): the first to settle wins. */
export type WaitInput = {
  /** Settled states that satisfy it (not UNREACHABLE or UNKNOWN). */
  accept: Array<Liveness>;
  /** The agent to wait for. */
  agentId?: string | number | null | undefined;
  /** Several agents, each pinned separately (up to 20). */
  agentIds?: Array<string | number> | null | undefined;
  /** The goal. */
  goalId: string | number;
  /** Required; at most 3600000. */
  timeoutMs: number;
  /** The work to pin; defaults to each agent's current claimed todo. */
  todoId?: string | number | null | undefined;
};

/** Why a target could not be pinned. */
export const WaitLimitation = {
  /** Its presence had lapsed when the wait started: nothing could be observed. */
  CoverageLost: 'COVERAGE_LOST',
  /** No presence for the target when the wait started. */
  NoPresenceAtStart: 'NO_PRESENCE_AT_START',
  /** Its provider does not support pinned waits. */
  ProviderWithoutPinnedWaits: 'PROVIDER_WITHOUT_PINNED_WAITS'
} as const;

export type WaitLimitation = typeof WaitLimitation[keyof typeof WaitLimitation];
/** Why a wait ended the way it did. */
export const WaitReason = {
  /** The pinned target's presence lapsed (its provider stopped reporting it, restarted, or lost its credential; resolution.seq names the change, whose coverageGap says which), or had lapsed when the wait started. With status UNOBSERVABLE. Never read as the agent having stopped. */
  CoverageLost: 'COVERAGE_LOST',
  /** timeoutMs elapsed. */
  DeadlinePassed: 'DEADLINE_PASSED',
  /** No provider saw the target when the wait started: nothing to pin. */
  NoPresenceAtStart: 'NO_PRESENCE_AT_START',
  /** A different occupant appeared at the pinned location: a replacement never satisfies. */
  PinnedOccupantReplaced: 'PINNED_OCCUPANT_REPLACED',
  /** The provider reported the pinned occupant gone. */
  PresenceEnded: 'PRESENCE_ENDED',
  /** The target's provider does not support pinned waits. */
  ProviderWithoutPinnedWaits: 'PROVIDER_WITHOUT_PINNED_WAITS'
} as const;

export type WaitReason = typeof WaitReason[keyof typeof WaitReason];
/** Where a wait stands. Only SATISFIED is success; every other terminal state says why not. */
export const WaitStatus = {
  /** The pinned occupant is gone (see reason). Not success. */
  NotRunning: 'NOT_RUNNING',
  /** Not settled yet. */
  Pending: 'PENDING',
  /** A pinned occupant moved, after its baseline, into an accepted liveness. */
  Satisfied: 'SATISFIED',
  /** The deadline passed with no settling change. Not success. */
  TimedOut: 'TIMED_OUT',
  /** Nothing can be observed of the target any more (reason COVERAGE_LOST: its presence lapsed, so its provider cannot see it) or ever (reason PROVIDER_WITHOUT_PINNED_WAITS: no change can be trusted). Not success, not a timeout, and not a statement that the agent stopped. */
  Unobservable: 'UNOBSERVABLE',
  /** The pinned occupant became unreachable. Not success. */
  Unreachable: 'UNREACHABLE'
} as const;

export type WaitStatus = typeof WaitStatus[keyof typeof WaitStatus];
/** Why the agent's declared workspace does not do for a repository-writing todo. */
export const WorkspaceGuardReason = {
  /** The workspace is the canonical checkout of the repository: writing needs a linked worktree. */
  CanonicalCheckout: 'CANONICAL_CHECKOUT',
  /** The agent has declared no workspace in the goal (declareWorkspace). */
  NoWorkspace: 'NO_WORKSPACE',
  /** The agent's workspace is a checkout of another repository. */
  RepositoryMismatch: 'REPOSITORY_MISMATCH'
} as const;

export type WorkspaceGuardReason = typeof WorkspaceGuardReason[keyof typeof WorkspaceGuardReason];
/** What kind of checkout an agent's workspace is. */
export const WorktreeKind = {
  /** The repository's canonical checkout, shared with people and other tools: refused for repository-writing work. */
  Canonical: 'CANONICAL',
  /** A linked worktree of its own (`git worktree add`): where repository-writing work may run. */
  Linked: 'LINKED'
} as const;

export type WorktreeKind = typeof WorktreeKind[keyof typeof WorktreeKind];
export type RetentionGapFieldsFragment = { goalId: string, after: string, resumeAfter: string };

export type ScopeGapFieldsFragment = { goalId: string, reason: ScopeGapReason };

export type ActorFieldsFragment = { kind: CallerKind, agentId: string | null };

export type LeaseFieldsFragment = { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null };

export type TodoFieldsFragment = { goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } };

export type PresenceFieldsFragment = { provider: string, host: string | null, providerSessionRef: string, occupantRef: string, liveness: Liveness, reportedLiveness: Liveness, observedAt: string, basis: PresenceBasis, explain: string | null, blockedKind: BlockedKind | null, stateChangeSeq: string, stale: boolean, coverageGap: CoverageGap | null, endedAt: string | null };

export type AttentionRowFieldsFragment = { reason: AttentionReason, agentId: string | null, todoId: string | null, gateId: string | null, deliveryId: string | null, provider: string | null, agentIds: Array<string>, coverageGap: CoverageGap | null, liveness: Liveness | null, blockedKind: BlockedKind | null, since: string };

export type GateFieldsFragment = { goalId: string, id: string, kind: GateKind, granularity: GateGranularity, scopeKey: string, scope: string, reason: string, state: GateState, decision: GateDecision | null, decisionNote: string | null, expiresAt: string | null, openedAt: string, resolvedAt: string | null, openedBy: { kind: CallerKind, agentId: string | null }, resolvedBy: { kind: CallerKind, agentId: string | null } | null };

export type VisionFieldsFragment = { goalId: string, agentId: string, roleScope: string, visionSummary: string, acceptanceSummary: string, replanTriggerSummary: string, updatedAt: string, updatedBy: { kind: CallerKind, agentId: string | null } };

export type AgentFieldsFragment = { goalId: string, agentId: string, agentModel: string, hostSurface: string, registeredAt: string, retiredAt: string | null };

export type CredentialFieldsFragment = { id: string, kind: CallerKind, label: string, goalId: string | null, agentId: string | null, goalIds: Array<string>, providerId: string | null, createdAt: string, revokedAt: string | null, expiresAt: string | null, status: CredentialStatus, lastUsedAt: string | null };

export type UnknownAgentFieldsFragment = { goalId: string, agentId: string };

export type UnknownTodoFieldsFragment = { goalId: string, todoId: string };

export type ScopeGapResultFieldsFragment = { goalId: string, scopeGapReason: ScopeGapReason };

export type TodoPageQueryVariables = Exact<{
  goalId: string | number;
  ids?: Array<string | number> | string | number | null | undefined;
  offset?: number | null | undefined;
  limit?: number | null | undefined;
}>;


export type TodoPageQuery = { todoPage: { goalId: string, seq: string, ledgerSeq: string, omittedRowCount: number, rows: Array<{ goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } }>, scopeGap: { goalId: string, reason: ScopeGapReason } | null } };

export type TodoNamesQueryVariables = Exact<{
  goalId: string | number;
  ids: Array<string | number> | string | number;
}>;


export type TodoNamesQuery = { todoPage: { goalId: string, ledgerSeq: string, rows: Array<{ id: string, title: string, status: TodoStatus, taskClass: TaskClass }>, scopeGap: { goalId: string, reason: ScopeGapReason } | null } };

export type DashboardFrontierQueryVariables = Exact<{
  goalId: string | number;
  agentId?: string | number | null | undefined;
}>;


export type DashboardFrontierQuery = { frontier:
    | { __typename: 'Frontier', goalId: string, agentId: string, runnableCount: number, rows: Array<{ runnable: boolean, todo: { id: string, title: string, status: TodoStatus, priority: number, claimedBy: string | null }, guards: Array<{ kind: FrontierGuardKind, detail: string, todoId: string | null, scope: string | null }> }> }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type OutcomeChangeFieldsFragment = { deliveryId: string, version: number, outcome: DeliveryOutcome, previousOutcome: DeliveryOutcome | null, reason: DeliveryOutcomeReason | null, liveness: Liveness | null, seq: string | null, effectiveAt: string, recordedAt: string, final: boolean };

export type DeliveryFieldsFragment = { id: string, goalId: string, from: string | null, to: string, kind: DeliveryKind, subject: string, threadId: string, replyTo: string | null, todoId: string | null, bodyPreview: string, seq: string, submittedAt: string, idempotencyKey: string, replayed: boolean, outcome: DeliveryOutcome, outcomeVersion: number, limitations: Array<DeliveryLimitation>, activityWindowMs: number, windowEndsAt: string, timeoutMs: number, deadline: string, sender: { kind: CallerKind, agentId: string | null, goalId: string | null, credentialId: string | null }, outcomeChange: { deliveryId: string, version: number, outcome: DeliveryOutcome, previousOutcome: DeliveryOutcome | null, reason: DeliveryOutcomeReason | null, liveness: Liveness | null, seq: string | null, effectiveAt: string, recordedAt: string, final: boolean }, history: Array<{ deliveryId: string, version: number, outcome: DeliveryOutcome, previousOutcome: DeliveryOutcome | null, reason: DeliveryOutcomeReason | null, liveness: Liveness | null, seq: string | null, effectiveAt: string, recordedAt: string, final: boolean }>, pin: { state: DeliveryPinState, provider: string | null, providerSessionRef: string | null, occupantRef: string | null, baselineSeq: string }, receipt: { submittedAt: string, notifiedAt: string | null, pushedAt: string | null, pushCount: number, readAt: string | null, processedAt: string | null, notices: Array<{ via: DeliveryNoticeVia, provider: string, providerSessionRef: string, occupantRef: string, text: string | null, observedAt: string }> } };

export type InboxMessageFieldsFragment = { id: string, goalId: string, seq: string, from: string | null, to: string, kind: DeliveryKind, subject: string, body: string, bodyPreview: string, threadId: string, replyTo: string | null, todoId: string | null, submittedAt: string, readAt: string | null, processedAt: string | null, takenAt: string | null, takeCount: number, pushedAt: string | null, pushCount: number, active: boolean, sender: { kind: CallerKind, agentId: string | null, goalId: string | null, credentialId: string | null } };

export type DeliverMutationVariables = Exact<{
  input: DeliverInput;
}>;


export type DeliverMutation = { deliver:
    | { __typename: 'Delivery', id: string, goalId: string, from: string | null, to: string, kind: DeliveryKind, subject: string, threadId: string, replyTo: string | null, todoId: string | null, bodyPreview: string, seq: string, submittedAt: string, idempotencyKey: string, replayed: boolean, outcome: DeliveryOutcome, outcomeVersion: number, limitations: Array<DeliveryLimitation>, activityWindowMs: number, windowEndsAt: string, timeoutMs: number, deadline: string, sender: { kind: CallerKind, agentId: string | null, goalId: string | null, credentialId: string | null }, outcomeChange: { deliveryId: string, version: number, outcome: DeliveryOutcome, previousOutcome: DeliveryOutcome | null, reason: DeliveryOutcomeReason | null, liveness: Liveness | null, seq: string | null, effectiveAt: string, recordedAt: string, final: boolean }, history: Array<{ deliveryId: string, version: number, outcome: DeliveryOutcome, previousOutcome: DeliveryOutcome | null, reason: DeliveryOutcomeReason | null, liveness: Liveness | null, seq: string | null, effectiveAt: string, recordedAt: string, final: boolean }>, pin: { state: DeliveryPinState, provider: string | null, providerSessionRef: string | null, occupantRef: string | null, baselineSeq: string }, receipt: { submittedAt: string, notifiedAt: string | null, pushedAt: string | null, pushCount: number, readAt: string | null, processedAt: string | null, notices: Array<{ via: DeliveryNoticeVia, provider: string, providerSessionRef: string, occupantRef: string, text: string | null, observedAt: string }> } }
    | { __typename: 'DeliveryRefused', goalId: string, reason: DeliveryRefusalReason, target: string | null, choices: Array<string>, notReadyReason: DeliveryNotReadyReason | null, blocked: { liveness: Liveness, kind: BlockedKind | null, observedAt: string, stateChangeSeq: string } | null, scopeGap: { goalId: string, reason: ScopeGapReason } | null }
    | { __typename: 'IdempotencyConflict', goalId: string, idempotencyKey: string, differingFields: Array<DeliveryField>, original: { id: string, goalId: string, from: string | null, to: string, kind: DeliveryKind, subject: string, threadId: string, replyTo: string | null, todoId: string | null, bodyPreview: string, seq: string, submittedAt: string, idempotencyKey: string, replayed: boolean, outcome: DeliveryOutcome, outcomeVersion: number, limitations: Array<DeliveryLimitation>, activityWindowMs: number, windowEndsAt: string, timeoutMs: number, deadline: string, sender: { kind: CallerKind, agentId: string | null, goalId: string | null, credentialId: string | null }, outcomeChange: { deliveryId: string, version: number, outcome: DeliveryOutcome, previousOutcome: DeliveryOutcome | null, reason: DeliveryOutcomeReason | null, liveness: Liveness | null, seq: string | null, effectiveAt: string, recordedAt: string, final: boolean }, history: Array<{ deliveryId: string, version: number, outcome: DeliveryOutcome, previousOutcome: DeliveryOutcome | null, reason: DeliveryOutcomeReason | null, liveness: Liveness | null, seq: string | null, effectiveAt: string, recordedAt: string, final: boolean }>, pin: { state: DeliveryPinState, provider: string | null, providerSessionRef: string | null, occupantRef: string | null, baselineSeq: string }, receipt: { submittedAt: string, notifiedAt: string | null, pushedAt: string | null, pushCount: number, readAt: string | null, processedAt: string | null, notices: Array<{ via: DeliveryNoticeVia, provider: string, providerSessionRef: string, occupantRef: string, text: string | null, observedAt: string }> } } }
   };

export type DeliveryQueryVariables = Exact<{
  id: string | number;
}>;


export type DeliveryQuery = { delivery:
    | { __typename: 'Delivery', id: string, goalId: string, from: string | null, to: string, kind: DeliveryKind, subject: string, threadId: string, replyTo: string | null, todoId: string | null, bodyPreview: string, seq: string, submittedAt: string, idempotencyKey: string, replayed: boolean, outcome: DeliveryOutcome, outcomeVersion: number, limitations: Array<DeliveryLimitation>, activityWindowMs: number, windowEndsAt: string, timeoutMs: number, deadline: string, sender: { kind: CallerKind, agentId: string | null, goalId: string | null, credentialId: string | null }, outcomeChange: { deliveryId: string, version: number, outcome: DeliveryOutcome, previousOutcome: DeliveryOutcome | null, reason: DeliveryOutcomeReason | null, liveness: Liveness | null, seq: string | null, effectiveAt: string, recordedAt: string, final: boolean }, history: Array<{ deliveryId: string, version: number, outcome: DeliveryOutcome, previousOutcome: DeliveryOutcome | null, reason: DeliveryOutcomeReason | null, liveness: Liveness | null, seq: string | null, effectiveAt: string, recordedAt: string, final: boolean }>, pin: { state: DeliveryPinState, provider: string | null, providerSessionRef: string | null, occupantRef: string | null, baselineSeq: string }, receipt: { submittedAt: string, notifiedAt: string | null, pushedAt: string | null, pushCount: number, readAt: string | null, processedAt: string | null, notices: Array<{ via: DeliveryNoticeVia, provider: string, providerSessionRef: string, occupantRef: string, text: string | null, observedAt: string }> } }
    | { __typename: 'UnknownDelivery', deliveryId: string }
   };

export type DeliveryOutcomeSubscriptionVariables = Exact<{
  deliveryId: string | number;
  after?: number | null | undefined;
}>;


export type DeliveryOutcomeSubscription = { deliveryOutcome:
    | { __typename: 'DeliveryOutcomeChange', deliveryId: string, version: number, outcome: DeliveryOutcome, previousOutcome: DeliveryOutcome | null, reason: DeliveryOutcomeReason | null, liveness: Liveness | null, seq: string | null, effectiveAt: string, recordedAt: string, final: boolean }
    | { __typename: 'UnknownDelivery', deliveryId: string }
   };

export type InboxQueryVariables = Exact<{
  goalId: string | number;
  unread?: boolean | null | undefined;
  unprocessed?: boolean | null | undefined;
  tail?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type InboxQuery = { inbox:
    | { __typename: 'Inbox', goalId: string, recipient: string, cursor: string, activeMessageId: string | null, unreadCount: number, unprocessedCount: number, omittedCount: number, messages: Array<{ id: string, goalId: string, seq: string, from: string | null, to: string, kind: DeliveryKind, subject: string, body: string, bodyPreview: string, threadId: string, replyTo: string | null, todoId: string | null, submittedAt: string, readAt: string | null, processedAt: string | null, takenAt: string | null, takeCount: number, pushedAt: string | null, pushCount: number, active: boolean, sender: { kind: CallerKind, agentId: string | null, goalId: string | null, credentialId: string | null } }> }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type TakeNextMessageMutationVariables = Exact<{
  goalId: string | number;
}>;


export type TakeNextMessageMutation = { takeNextMessage:
    | { __typename: 'InboxEmpty', goalId: string, recipient: string }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'TakenMessage', repeated: boolean, message: { id: string, goalId: string, seq: string, from: string | null, to: string, kind: DeliveryKind, subject: string, body: string, bodyPreview: string, threadId: string, replyTo: string | null, todoId: string | null, submittedAt: string, readAt: string | null, processedAt: string | null, takenAt: string | null, takeCount: number, pushedAt: string | null, pushCount: number, active: boolean, sender: { kind: CallerKind, agentId: string | null, goalId: string | null, credentialId: string | null } } }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type MarkReadMutationVariables = Exact<{
  ids: Array<string | number> | string | number;
}>;


export type MarkReadMutation = { markRead:
    | { __typename: 'MarkedRead', messages: Array<{ id: string, goalId: string, seq: string, from: string | null, to: string, kind: DeliveryKind, subject: string, body: string, bodyPreview: string, threadId: string, replyTo: string | null, todoId: string | null, submittedAt: string, readAt: string | null, processedAt: string | null, takenAt: string | null, takeCount: number, pushedAt: string | null, pushCount: number, active: boolean, sender: { kind: CallerKind, agentId: string | null, goalId: string | null, credentialId: string | null } }> }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
   };

export type ResolveMessageMutationVariables = Exact<{
  id: string | number;
}>;


export type ResolveMessageMutation = { resolveMessage:
    | { __typename: 'InboxMessage', id: string, goalId: string, seq: string, from: string | null, to: string, kind: DeliveryKind, subject: string, body: string, bodyPreview: string, threadId: string, replyTo: string | null, todoId: string | null, submittedAt: string, readAt: string | null, processedAt: string | null, takenAt: string | null, takeCount: number, pushedAt: string | null, pushCount: number, active: boolean, sender: { kind: CallerKind, agentId: string | null, goalId: string | null, credentialId: string | null } }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
   };

export type ReleaseMessageMutationVariables = Exact<{
  id: string | number;
}>;


export type ReleaseMessageMutation = { releaseMessage:
    | { __typename: 'InboxMessage', id: string, goalId: string, seq: string, from: string | null, to: string, kind: DeliveryKind, subject: string, body: string, bodyPreview: string, threadId: string, replyTo: string | null, todoId: string | null, submittedAt: string, readAt: string | null, processedAt: string | null, takenAt: string | null, takeCount: number, pushedAt: string | null, pushCount: number, active: boolean, sender: { kind: CallerKind, agentId: string | null, goalId: string | null, credentialId: string | null } }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
   };

export type RecordSessionPushMutationVariables = Exact<{
  id: string | number;
}>;


export type RecordSessionPushMutation = { recordSessionPush:
    | { __typename: 'InboxMessage', id: string, goalId: string, seq: string, from: string | null, to: string, kind: DeliveryKind, subject: string, body: string, bodyPreview: string, threadId: string, replyTo: string | null, todoId: string | null, submittedAt: string, readAt: string | null, processedAt: string | null, takenAt: string | null, takeCount: number, pushedAt: string | null, pushCount: number, active: boolean, sender: { kind: CallerKind, agentId: string | null, goalId: string | null, credentialId: string | null } }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
   };

export type InboxMessagesSubscriptionVariables = Exact<{
  goalId: string | number;
  after?: string | null | undefined;
}>;


export type InboxMessagesSubscription = { inboxMessages:
    | { __typename: 'InboxMessage', id: string, goalId: string, seq: string, from: string | null, to: string, kind: DeliveryKind, subject: string, body: string, bodyPreview: string, threadId: string, replyTo: string | null, todoId: string | null, submittedAt: string, readAt: string | null, processedAt: string | null, takenAt: string | null, takeCount: number, pushedAt: string | null, pushCount: number, active: boolean, sender: { kind: CallerKind, agentId: string | null, goalId: string | null, credentialId: string | null } }
    | { __typename: 'RetentionGap', goalId: string, after: string, resumeAfter: string }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type DeliveriesQueryVariables = Exact<{
  goalId: string | number;
  agentId: string | number;
  direction?: DeliveryDirection | null | undefined;
  limit?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type DeliveriesQuery = { deliveries: { goalId: string, agentId: string, direction: DeliveryDirection, hasOlder: boolean, olderCursor: string | null, limitations: Array<DeliveryListingLimitation>, scopeGap: { goalId: string, reason: ScopeGapReason } | null, rows: Array<{ id: string, goalId: string, from: string | null, to: string, kind: DeliveryKind, subject: string, threadId: string, replyTo: string | null, todoId: string | null, bodyPreview: string, seq: string, submittedAt: string, idempotencyKey: string, replayed: boolean, outcome: DeliveryOutcome, outcomeVersion: number, limitations: Array<DeliveryLimitation>, activityWindowMs: number, windowEndsAt: string, timeoutMs: number, deadline: string, sender: { kind: CallerKind, agentId: string | null, goalId: string | null, credentialId: string | null }, outcomeChange: { deliveryId: string, version: number, outcome: DeliveryOutcome, previousOutcome: DeliveryOutcome | null, reason: DeliveryOutcomeReason | null, liveness: Liveness | null, seq: string | null, effectiveAt: string, recordedAt: string, final: boolean }, history: Array<{ deliveryId: string, version: number, outcome: DeliveryOutcome, previousOutcome: DeliveryOutcome | null, reason: DeliveryOutcomeReason | null, liveness: Liveness | null, seq: string | null, effectiveAt: string, recordedAt: string, final: boolean }>, pin: { state: DeliveryPinState, provider: string | null, providerSessionRef: string | null, occupantRef: string | null, baselineSeq: string }, receipt: { submittedAt: string, notifiedAt: string | null, pushedAt: string | null, pushCount: number, readAt: string | null, processedAt: string | null, notices: Array<{ via: DeliveryNoticeVia, provider: string, providerSessionRef: string, occupantRef: string, text: string | null, observedAt: string }> } }> } };

export type DeliveryAlertFieldsFragment = { deliveryId: string, to: string, from: string | null, subject: string, since: string };

export type DeliveryHealthQueryVariables = Exact<{
  goalId: string | number;
}>;


export type DeliveryHealthQuery = { deliveryHealth: { goalId: string, checkedAt: string, scopeGap: { goalId: string, reason: ScopeGapReason } | null, unread: Array<{ agentId: string, count: number, oldest: { deliveryId: string, to: string, from: string | null, subject: string, since: string } }>, offeredNotTaken: Array<{ deliveryId: string, to: string, from: string | null, subject: string, since: string }>, stalled: Array<{ deliveryId: string, to: string, from: string | null, subject: string, since: string }>, expired: Array<{ deliveryId: string, to: string, from: string | null, subject: string, since: string }>, doorbell: { listening: boolean, reason: string | null, since: string | null } } };

export type DirectoryQueryVariables = Exact<{
  goalId: string | number;
  limit?: number | null | undefined;
}>;


export type DirectoryQuery = { directory: { schemaVersion: string, goalId: string, collectedAt: string, scope: string, audience: CallerKind | null, registeredAgentCount: number, omittedRowCount: number, limitations: Array<DirectoryLimitation>, rows: Array<{ agentId: string, registered: boolean, agentModel: string, hostSurface: string, observationLimits: Array<ObservationLimit>, work: { todoId: string | null, claimed: boolean, lease: LeaseState }, presence: { provider: string, host: string | null, providerSessionRef: string, occupantRef: string, liveness: Liveness, reportedLiveness: Liveness, observedAt: string, basis: PresenceBasis, explain: string | null, blockedKind: BlockedKind | null, stateChangeSeq: string, stale: boolean, coverageGap: CoverageGap | null, endedAt: string | null } | null }>, scopeGap: { goalId: string, reason: ScopeGapReason } | null, rollup: Array<{ reason: AttentionReason, agentId: string | null, todoId: string | null, gateId: string | null, deliveryId: string | null, provider: string | null, agentIds: Array<string>, coverageGap: CoverageGap | null, liveness: Liveness | null, blockedKind: BlockedKind | null, since: string }> } };

export type AttentionQueryVariables = Exact<{
  goalId: string | number;
  staleClaimMs?: number | null | undefined;
}>;


export type AttentionQuery = { attention: { goalId: string, rows: Array<{ reason: AttentionReason, agentId: string | null, todoId: string | null, gateId: string | null, deliveryId: string | null, provider: string | null, agentIds: Array<string>, coverageGap: CoverageGap | null, liveness: Liveness | null, blockedKind: BlockedKind | null, since: string }>, scopeGap: { goalId: string, reason: ScopeGapReason } | null } };

export type ObserveQueryVariables = Exact<{
  goalId: string | number;
  agentId: string | number;
  source: ObservationSource;
  lines: number;
}>;


export type ObserveQuery = { observe:
    | { __typename: 'Observation', goalId: string, agentId: string, provider: string, source: ObservationSource, lines: Array<string>, lineBound: number, capturedAt: string, advisory: boolean, limits: Array<ObservationLimit>, redactionCount: number }
    | { __typename: 'ObservationGap', goalId: string, agentId: string, source: ObservationSource, reason: ObservationGapReason }
    | { __typename: 'ScopeGap', goalId: string, scopeGapReason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type PresenceChangedSubscriptionVariables = Exact<{
  goalId: string | number;
  agentIds?: Array<string | number> | string | number | null | undefined;
  after?: string | null | undefined;
}>;


export type PresenceChangedSubscription = { presenceChanged: { goalId: string, agentId: string | null, seq: string | null, previousLiveness: Liveness | null, presence: { provider: string, host: string | null, providerSessionRef: string, occupantRef: string, liveness: Liveness, reportedLiveness: Liveness, observedAt: string, basis: PresenceBasis, explain: string | null, blockedKind: BlockedKind | null, stateChangeSeq: string, stale: boolean, coverageGap: CoverageGap | null, endedAt: string | null } | null, scopeGap: { goalId: string, reason: ScopeGapReason } | null, retentionGap: { goalId: string, after: string, resumeAfter: string } | null } };

export type LedgerEventFieldsFragment = { goalId: string, seq: string, eventId: string, eventKind: LedgerEventKind, source: LedgerEventSource, agentId: string | null, todoId: string | null, gateId: string | null, relatedAgentId: string | null, classification: string | null, status: string | null, summary: string, evidenceRefs: Array<string>, goalChange: GoalChange | null, material: boolean, relevance: LedgerRelevance | null, citedDigest: string | null, recordedAt: string, recordedBy: { kind: CallerKind, agentId: string | null }, boundary: { rawLogsRecorded: boolean, rawTrajectoryRecorded: boolean, credentialValuesRecorded: boolean, absolutePathsRecorded: boolean, redactionCount: number } };

export type EvidenceLedgerQueryVariables = Exact<{
  goalId: string | number;
  agentId: string | number;
  todoId?: string | number | null | undefined;
  since?: string | null | undefined;
  eventKind?: LedgerEventKind | null | undefined;
  limit?: number | null | undefined;
  before?: string | null | undefined;
  includeOtherAgentFrontier?: boolean | null | undefined;
}>;


export type EvidenceLedgerQuery = { evidenceLedger: { schemaVersion: string, goalId: string, agentId: string, generatedAt: string, omittedFrontierRowCount: number, digest: string, source: { eventLog: boolean, workGraph: boolean, deliveries: boolean }, scope: { audience: CallerKind | null, currentAgentDetail: boolean, otherAgentDetail: OtherAgentDetail, lanePrefixes: Array<string> }, filters: { todoId: string | null, since: string | null, eventKind: LedgerEventKind | null, limit: number, before: string | null, includeOtherAgentFrontier: boolean }, events: Array<{ goalId: string, seq: string, eventId: string, eventKind: LedgerEventKind, source: LedgerEventSource, agentId: string | null, todoId: string | null, gateId: string | null, relatedAgentId: string | null, classification: string | null, status: string | null, summary: string, evidenceRefs: Array<string>, goalChange: GoalChange | null, material: boolean, relevance: LedgerRelevance | null, citedDigest: string | null, recordedAt: string, recordedBy: { kind: CallerKind, agentId: string | null }, boundary: { rawLogsRecorded: boolean, rawTrajectoryRecorded: boolean, credentialValuesRecorded: boolean, absolutePathsRecorded: boolean, redactionCount: number } }>, otherAgentFrontier: Array<{ agentId: string, visionSummary: string | null, topTodo: string | null, topTodoId: string | null, handoffState: HandoffState, latestMaterialAt: string | null }>, page: { headSeq: string, olderCursor: string | null, hasOlder: boolean }, readerHints: { requiredBefore: Array<LedgerReadPurpose>, nextRequiredReads: Array<{ query: string, reason: string }> }, scopeGap: { goalId: string, reason: ScopeGapReason } | null } };

export type RecordEventMutationVariables = Exact<{
  input: RecordEventInput;
}>;


export type RecordEventMutation = { recordEvent:
    | { __typename: 'LedgerEvent', goalId: string, seq: string, eventId: string, eventKind: LedgerEventKind, source: LedgerEventSource, agentId: string | null, todoId: string | null, gateId: string | null, relatedAgentId: string | null, classification: string | null, status: string | null, summary: string, evidenceRefs: Array<string>, goalChange: GoalChange | null, material: boolean, relevance: LedgerRelevance | null, citedDigest: string | null, recordedAt: string, recordedBy: { kind: CallerKind, agentId: string | null }, boundary: { rawLogsRecorded: boolean, rawTrajectoryRecorded: boolean, credentialValuesRecorded: boolean, absolutePathsRecorded: boolean, redactionCount: number } }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, unknownAgentId: string }
    | { __typename: 'UnknownTodo', goalId: string, unknownTodoId: string }
   };

export type RecordReplanCheckpointMutationVariables = Exact<{
  goalId: string | number;
  agentId: string | number;
  digest: string;
  kind: ReplanKind;
  delta: ReplanDeltaInput;
}>;


export type RecordReplanCheckpointMutation = { recordReplanCheckpoint:
    | { __typename: 'LedgerDigestMismatch', goalId: string, agentId: string, citedDigest: string, requiredRead: { query: string, reason: string } }
    | { __typename: 'ReplanCheckpoint', event: { goalId: string, seq: string, eventId: string, eventKind: LedgerEventKind, source: LedgerEventSource, agentId: string | null, todoId: string | null, gateId: string | null, relatedAgentId: string | null, classification: string | null, status: string | null, summary: string, evidenceRefs: Array<string>, goalChange: GoalChange | null, material: boolean, relevance: LedgerRelevance | null, citedDigest: string | null, recordedAt: string, recordedBy: { kind: CallerKind, agentId: string | null }, boundary: { rawLogsRecorded: boolean, rawTrajectoryRecorded: boolean, credentialValuesRecorded: boolean, absolutePathsRecorded: boolean, redactionCount: number } }, vision: { goalId: string, agentId: string, roleScope: string, visionSummary: string, acceptanceSummary: string, replanTriggerSummary: string, updatedAt: string, updatedBy: { kind: CallerKind, agentId: string | null } } | null }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type LedgerEventsSubscriptionVariables = Exact<{
  goalId: string | number;
  agentId: string | number;
  after?: string | null | undefined;
}>;


export type LedgerEventsSubscription = { ledgerEvents:
    | { __typename: 'LedgerEvent', goalId: string, seq: string, eventId: string, eventKind: LedgerEventKind, source: LedgerEventSource, agentId: string | null, todoId: string | null, gateId: string | null, relatedAgentId: string | null, classification: string | null, status: string | null, summary: string, evidenceRefs: Array<string>, goalChange: GoalChange | null, material: boolean, relevance: LedgerRelevance | null, citedDigest: string | null, recordedAt: string, recordedBy: { kind: CallerKind, agentId: string | null }, boundary: { rawLogsRecorded: boolean, rawTrajectoryRecorded: boolean, credentialValuesRecorded: boolean, absolutePathsRecorded: boolean, redactionCount: number } }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
   };

export type GoalLedgerEventsSubscriptionVariables = Exact<{
  goalId: string | number;
  after?: string | null | undefined;
}>;


export type GoalLedgerEventsSubscription = { goalLedgerEvents:
    | { __typename: 'LedgerEvent', goalId: string, seq: string, eventId: string, eventKind: LedgerEventKind, source: LedgerEventSource, agentId: string | null, todoId: string | null, gateId: string | null, relatedAgentId: string | null, classification: string | null, status: string | null, summary: string, evidenceRefs: Array<string>, goalChange: GoalChange | null, material: boolean, relevance: LedgerRelevance | null, citedDigest: string | null, recordedAt: string, recordedBy: { kind: CallerKind, agentId: string | null }, boundary: { rawLogsRecorded: boolean, rawTrajectoryRecorded: boolean, credentialValuesRecorded: boolean, absolutePathsRecorded: boolean, redactionCount: number } }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
   };

export type ReplanObligationsQueryVariables = Exact<{
  goalId: string | number;
  agentId: string | number;
}>;


export type ReplanObligationsQuery = { replanObligations:
    | { __typename: 'ReplanObligations', goalId: string, agentId: string, owed: boolean, hasVision: boolean, headSeq: string, obligations: Array<{ kind: ReplanObligationKind, detail: string, count: number, countCapped: boolean, latestSeq: string | null }>, lastCheckpoint: { seq: string, recordedAt: string, kind: ReplanKind } | null, requiredReads: Array<{ query: string, command: string | null, reason: string }> }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
   };

export type RegisterProviderMutationVariables = Exact<{
  input: RegisterProviderInput;
}>;


export type RegisterProviderMutation = { registerProvider: { providerId: string, instanceId: string, presenceTtlMs: number, supportsPinnedWaits: boolean, goalIds: Array<string>, host: string | null, registeredAt: string } };

export type ReportPresenceMutationVariables = Exact<{
  reports: Array<PresenceReportInput> | PresenceReportInput;
}>;


export type ReportPresenceMutation = { reportPresence:
    | { __typename: 'PresenceAccepted', changed: number, heartbeats: number, outOfOrder: number, refused: Array<{ index: number, goalId: string, agentId: string, reason: PresenceRefusalReason, field: string | null, message: string | null }> }
    | { __typename: 'PresenceRefused', index: number, goalId: string, agentId: string, reason: PresenceRefusalReason }
   };

export type EndPresenceMutationVariables = Exact<{
  input: EndPresenceInput;
}>;


export type EndPresenceMutation = { endPresence:
    | { __typename: 'PresenceAccepted', changed: number, heartbeats: number, outOfOrder: number }
    | { __typename: 'PresenceRefused', index: number, goalId: string, agentId: string, reason: PresenceRefusalReason }
   };

export type ReportObservationMutationVariables = Exact<{
  input: ReportObservationInput;
}>;


export type ReportObservationMutation = { reportObservation:
    | { __typename: 'ObservationGap', goalId: string, agentId: string, source: ObservationSource, gapReason: ObservationGapReason }
    | { __typename: 'PresenceAccepted', changed: number }
    | { __typename: 'PresenceRefused', goalId: string, agentId: string, reason: PresenceRefusalReason }
   };

export type RecordDeliveryNoticeMutationVariables = Exact<{
  input: RecordDeliveryNoticeInput;
}>;


export type RecordDeliveryNoticeMutation = { recordDeliveryNotice:
    | { __typename: 'DeliveryNotice', deliveryId: string, via: DeliveryNoticeVia, seq: string, observedAt: string }
    | { __typename: 'DeliveryNoticeRefused', reason: DeliveryNoticeRefusalReason, goalId: string, deliveryId: string, liveness: Liveness | null }
    | { __typename: 'ScopeGap', goalId: string, scopeGapReason: ScopeGapReason }
   };

export type PendingNoticesQueryVariables = Exact<{
  goalId: string | number;
}>;


export type PendingNoticesQuery = { pendingNotices:
    | { __typename: 'PendingNotices', goalId: string, notices: Array<{ deliveryId: string, agentId: string, providerSessionRef: string, occupantRef: string }> }
    | { __typename: 'ScopeGap', goalId: string, scopeGapReason: ScopeGapReason }
   };

export type WhoamiQueryVariables = Exact<{ [key: string]: never; }>;


export type WhoamiQuery = { me: { kind: CallerKind, goalId: string | null, agentId: string | null, providerId: string | null, credentialId: string | null, goalIds: Array<string> } };

export type GoalsQueryVariables = Exact<{ [key: string]: never; }>;


export type GoalsQuery = { goals: Array<{ id: string, title: string, createdAt: string }> };

export type AgentsQueryVariables = Exact<{
  goalId: string | number;
  includeRetired?: boolean | null | undefined;
}>;


export type AgentsQuery = { agents: { goalId: string, rows: Array<{ goalId: string, agentId: string, agentModel: string, hostSurface: string, registeredAt: string, retiredAt: string | null }>, scopeGap: { goalId: string, reason: ScopeGapReason } | null } };

export type CreateGoalMutationVariables = Exact<{
  input: CreateGoalInput;
}>;


export type CreateGoalMutation = { createGoal:
    | { __typename: 'Goal', id: string, title: string, createdAt: string }
    | { __typename: 'GoalAlreadyExists', goal: { id: string, title: string, createdAt: string } }
   };

export type RegisterAgentMutationVariables = Exact<{
  input: RegisterAgentInput;
}>;


export type RegisterAgentMutation = { registerAgent:
    | { __typename: 'Agent', goalId: string, agentId: string, agentModel: string, hostSurface: string, registeredAt: string, retiredAt: string | null }
    | { __typename: 'AgentAlreadyRegistered', agent: { goalId: string, agentId: string, agentModel: string, hostSurface: string, registeredAt: string, retiredAt: string | null } }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
   };

export type RetireAgentMutationVariables = Exact<{
  goalId: string | number;
  agentId: string | number;
}>;


export type RetireAgentMutation = { retireAgent:
    | { __typename: 'Agent', goalId: string, agentId: string, agentModel: string, hostSurface: string, registeredAt: string, retiredAt: string | null }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type IssueCredentialMutationVariables = Exact<{
  input: IssueCredentialInput;
}>;


export type IssueCredentialMutation = { issueCredential: { token: string, credential: { id: string, kind: CallerKind, label: string, goalId: string | null, agentId: string | null, goalIds: Array<string>, providerId: string | null, createdAt: string, revokedAt: string | null, expiresAt: string | null, status: CredentialStatus, lastUsedAt: string | null } } };

export type RevokeCredentialMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeCredentialMutation = { revokeCredential: { id: string, kind: CallerKind, label: string, goalId: string | null, agentId: string | null, goalIds: Array<string>, providerId: string | null, createdAt: string, revokedAt: string | null, expiresAt: string | null, status: CredentialStatus, lastUsedAt: string | null } };

export type CredentialsQueryVariables = Exact<{
  goalId?: string | number | null | undefined;
  kind?: CallerKind | null | undefined;
}>;


export type CredentialsQuery = { credentials: Array<{ id: string, kind: CallerKind, label: string, goalId: string | null, agentId: string | null, goalIds: Array<string>, providerId: string | null, createdAt: string, revokedAt: string | null, expiresAt: string | null, status: CredentialStatus, lastUsedAt: string | null }> };

export type RotateCredentialMutationVariables = Exact<{
  id: string | number;
}>;


export type RotateCredentialMutation = { rotateCredential: { token: string, credential: { id: string, kind: CallerKind, label: string, goalId: string | null, agentId: string | null, goalIds: Array<string>, providerId: string | null, createdAt: string, revokedAt: string | null, expiresAt: string | null, status: CredentialStatus, lastUsedAt: string | null } } };

export type DelegateGoalMutationVariables = Exact<{
  input: DelegateGoalInput;
}>;


export type DelegateGoalMutation = { delegateGoal:
    | { __typename: 'Delegation', goalId: string, agentGoalId: string, agentId: string, createdAt: string }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type RosterFieldsFragment = { goalId: string, self: string | null, selfKind: CallerKind, primaryPeer: string | null, peers: Array<{ agentId: string, status: RosterPeerStatus, source: RosterSource, attachedAt: string, lastActiveAt: string | null, isPrimary: boolean }> };

export type DiscoverQueryVariables = Exact<{
  goalId: string | number;
}>;


export type DiscoverQuery = { discover:
    | { __typename: 'Discovery', goalId: string, self: string | null, limitations: Array<DiscoveryLimitation>, agents: Array<{ agentId: string, isSelf: boolean, connected: boolean, isPrimary: boolean, sources: Array<DiscoverySource>, freshness: Freshness, staleReason: StaleReason | null, liveness: Liveness | null, lastSeenAt: string | null, lastMessageAt: string | null }> }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
   };

export type RosterQueryVariables = Exact<{
  goalId: string | number;
}>;


export type RosterQuery = { roster:
    | { __typename: 'Roster', goalId: string, self: string | null, selfKind: CallerKind, primaryPeer: string | null, peers: Array<{ agentId: string, status: RosterPeerStatus, source: RosterSource, attachedAt: string, lastActiveAt: string | null, isPrimary: boolean }> }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
   };

export type AddPeerMutationVariables = Exact<{
  goalId: string | number;
  agentId: string | number;
}>;


export type AddPeerMutation = { addPeer:
    | { __typename: 'Roster', goalId: string, self: string | null, selfKind: CallerKind, primaryPeer: string | null, peers: Array<{ agentId: string, status: RosterPeerStatus, source: RosterSource, attachedAt: string, lastActiveAt: string | null, isPrimary: boolean }> }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type RemovePeerMutationVariables = Exact<{
  goalId: string | number;
  agentId: string | number;
}>;


export type RemovePeerMutation = { removePeer:
    | { __typename: 'Roster', goalId: string, self: string | null, selfKind: CallerKind, primaryPeer: string | null, peers: Array<{ agentId: string, status: RosterPeerStatus, source: RosterSource, attachedAt: string, lastActiveAt: string | null, isPrimary: boolean }> }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
   };

export type SetPrimaryPeerMutationVariables = Exact<{
  goalId: string | number;
  agentId?: string | number | null | undefined;
}>;


export type SetPrimaryPeerMutation = { setPrimaryPeer:
    | { __typename: 'Roster', goalId: string, self: string | null, selfKind: CallerKind, primaryPeer: string | null, peers: Array<{ agentId: string, status: RosterPeerStatus, source: RosterSource, attachedAt: string, lastActiveAt: string | null, isPrimary: boolean }> }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type WaitPinFieldsFragment = { goalId: string, agentId: string, todoId: string | null, provider: string | null, providerSessionRef: string | null, occupantRef: string | null };

export type WaitFieldsFragment = { id: string, goalId: string, status: WaitStatus, reason: WaitReason | null, accept: Array<Liveness>, timeoutMs: number, deadline: string, createdAt: string, resolvedAt: string | null, baselineSeq: string, limitations: Array<WaitLimitation>, pin: { goalId: string, agentId: string, todoId: string | null, provider: string | null, providerSessionRef: string | null, occupantRef: string | null }, targets: Array<{ agentId: string, pinned: boolean, baselineSeq: string, limitation: WaitLimitation | null, pin: { goalId: string, agentId: string, todoId: string | null, provider: string | null, providerSessionRef: string | null, occupantRef: string | null } }>, resolution: { agentId: string | null, liveness: Liveness | null, seq: string | null } | null };

type WaitResultFields_PendingWaitsLimited_Fragment = { __typename: 'PendingWaitsLimited', limit: number, pending: number };

type WaitResultFields_ScopeGap_Fragment = { __typename: 'ScopeGap', goalId: string, scopeGapReason: ScopeGapReason };

type WaitResultFields_UnknownAgent_Fragment = { __typename: 'UnknownAgent', goalId: string, agentId: string };

type WaitResultFields_UnknownWait_Fragment = { __typename: 'UnknownWait', waitId: string };

type WaitResultFields_Wait_Fragment = { __typename: 'Wait', id: string, goalId: string, status: WaitStatus, reason: WaitReason | null, accept: Array<Liveness>, timeoutMs: number, deadline: string, createdAt: string, resolvedAt: string | null, baselineSeq: string, limitations: Array<WaitLimitation>, pin: { goalId: string, agentId: string, todoId: string | null, provider: string | null, providerSessionRef: string | null, occupantRef: string | null }, targets: Array<{ agentId: string, pinned: boolean, baselineSeq: string, limitation: WaitLimitation | null, pin: { goalId: string, agentId: string, todoId: string | null, provider: string | null, providerSessionRef: string | null, occupantRef: string | null } }>, resolution: { agentId: string | null, liveness: Liveness | null, seq: string | null } | null };

export type WaitResultFieldsFragment =
  | WaitResultFields_PendingWaitsLimited_Fragment
  | WaitResultFields_ScopeGap_Fragment
  | WaitResultFields_UnknownAgent_Fragment
  | WaitResultFields_UnknownWait_Fragment
  | WaitResultFields_Wait_Fragment
;

export type StartWaitMutationVariables = Exact<{
  input: WaitInput;
}>;


export type StartWaitMutation = { startWait:
    | { __typename: 'PendingWaitsLimited', limit: number, pending: number }
    | { __typename: 'ScopeGap', goalId: string, scopeGapReason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownWait', waitId: string }
    | { __typename: 'Wait', id: string, goalId: string, status: WaitStatus, reason: WaitReason | null, accept: Array<Liveness>, timeoutMs: number, deadline: string, createdAt: string, resolvedAt: string | null, baselineSeq: string, limitations: Array<WaitLimitation>, pin: { goalId: string, agentId: string, todoId: string | null, provider: string | null, providerSessionRef: string | null, occupantRef: string | null }, targets: Array<{ agentId: string, pinned: boolean, baselineSeq: string, limitation: WaitLimitation | null, pin: { goalId: string, agentId: string, todoId: string | null, provider: string | null, providerSessionRef: string | null, occupantRef: string | null } }>, resolution: { agentId: string | null, liveness: Liveness | null, seq: string | null } | null }
   };

export type WaitQueryVariables = Exact<{
  id: string | number;
}>;


export type WaitQuery = { wait:
    | { __typename: 'PendingWaitsLimited', limit: number, pending: number }
    | { __typename: 'ScopeGap', goalId: string, scopeGapReason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownWait', waitId: string }
    | { __typename: 'Wait', id: string, goalId: string, status: WaitStatus, reason: WaitReason | null, accept: Array<Liveness>, timeoutMs: number, deadline: string, createdAt: string, resolvedAt: string | null, baselineSeq: string, limitations: Array<WaitLimitation>, pin: { goalId: string, agentId: string, todoId: string | null, provider: string | null, providerSessionRef: string | null, occupantRef: string | null }, targets: Array<{ agentId: string, pinned: boolean, baselineSeq: string, limitation: WaitLimitation | null, pin: { goalId: string, agentId: string, todoId: string | null, provider: string | null, providerSessionRef: string | null, occupantRef: string | null } }>, resolution: { agentId: string | null, liveness: Liveness | null, seq: string | null } | null }
   };

export type FollowWaitSubscriptionVariables = Exact<{
  waitId: string | number;
}>;


export type FollowWaitSubscription = { waitForAgent:
    | { __typename: 'PendingWaitsLimited', limit: number, pending: number }
    | { __typename: 'ScopeGap', goalId: string, scopeGapReason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownWait', waitId: string }
    | { __typename: 'Wait', id: string, goalId: string, status: WaitStatus, reason: WaitReason | null, accept: Array<Liveness>, timeoutMs: number, deadline: string, createdAt: string, resolvedAt: string | null, baselineSeq: string, limitations: Array<WaitLimitation>, pin: { goalId: string, agentId: string, todoId: string | null, provider: string | null, providerSessionRef: string | null, occupantRef: string | null }, targets: Array<{ agentId: string, pinned: boolean, baselineSeq: string, limitation: WaitLimitation | null, pin: { goalId: string, agentId: string, todoId: string | null, provider: string | null, providerSessionRef: string | null, occupantRef: string | null } }>, resolution: { agentId: string | null, liveness: Liveness | null, seq: string | null } | null }
   };

export type WaitsQueryVariables = Exact<{
  goalId: string | number;
  agentId: string | number;
  status?: WaitStatus | null | undefined;
  limit?: number | null | undefined;
}>;


export type WaitsQuery = { waits: { goalId: string, agentId: string, omittedRowCount: number, scopeGap: { goalId: string, reason: ScopeGapReason } | null, rows: Array<{ id: string, goalId: string, status: WaitStatus, reason: WaitReason | null, accept: Array<Liveness>, timeoutMs: number, deadline: string, createdAt: string, resolvedAt: string | null, baselineSeq: string, limitations: Array<WaitLimitation>, pin: { goalId: string, agentId: string, todoId: string | null, provider: string | null, providerSessionRef: string | null, occupantRef: string | null }, targets: Array<{ agentId: string, pinned: boolean, baselineSeq: string, limitation: WaitLimitation | null, pin: { goalId: string, agentId: string, todoId: string | null, provider: string | null, providerSessionRef: string | null, occupantRef: string | null } }>, resolution: { agentId: string | null, liveness: Liveness | null, seq: string | null } | null }> } };

export type ClaimedByOtherFieldsFragment = { goalId: string, todoId: string, owner: string, claimedAt: string | null };

export type IllegalTransitionFieldsFragment = { goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind };

type TodoResultFields_ClaimedByOther_Fragment = { __typename: 'ClaimedByOther', goalId: string, todoId: string, owner: string, claimedAt: string | null };

type TodoResultFields_IllegalTransition_Fragment = { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind };

type TodoResultFields_ScopeGap_Fragment = { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason };

type TodoResultFields_Todo_Fragment = { __typename: 'Todo', goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } };

type TodoResultFields_UnknownAgent_Fragment = { __typename: 'UnknownAgent', goalId: string, agentId: string };

type TodoResultFields_UnknownTodo_Fragment = { __typename: 'UnknownTodo', goalId: string, todoId: string };

export type TodoResultFieldsFragment =
  | TodoResultFields_ClaimedByOther_Fragment
  | TodoResultFields_IllegalTransition_Fragment
  | TodoResultFields_ScopeGap_Fragment
  | TodoResultFields_Todo_Fragment
  | TodoResultFields_UnknownAgent_Fragment
  | TodoResultFields_UnknownTodo_Fragment
;

export type TodosQueryVariables = Exact<{
  goalId: string | number;
  limit?: number | null | undefined;
  statuses?: Array<TodoStatus> | TodoStatus | null | undefined;
}>;


export type TodosQuery = { todos: { goalId: string, seq: string, ledgerSeq: string, omittedRowCount: number, rows: Array<{ goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } }>, scopeGap: { goalId: string, reason: ScopeGapReason } | null } };

export type TodoTransitionsQueryVariables = Exact<{
  goalId: string | number;
  todoId: string | number;
}>;


export type TodoTransitionsQuery = { todoTransitions: { goalId: string, rows: Array<{ todoId: string, seq: string, kind: TodoTransitionKind, fromStatus: TodoStatus | null, toStatus: TodoStatus, detail: string, at: string, actor: { kind: CallerKind, agentId: string | null } }>, scopeGap: { goalId: string, reason: ScopeGapReason } | null } };

export type CreateTodoMutationVariables = Exact<{
  input: CreateTodoInput;
}>;


export type CreateTodoMutation = { createTodo:
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'Todo', goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type ClaimWarningFieldsFragment = { kind: ClaimWarningKind, todoId: string, owner: string, repository: string | null, writeScope: string, otherWriteScope: string };

export type ClaimTodoMutationVariables = Exact<{
  input: TodoActionInput;
}>;


export type ClaimTodoMutation = { claimTodo:
    | { __typename: 'ClaimedByOther', goalId: string, todoId: string, owner: string, claimedAt: string | null }
    | { __typename: 'ClaimedTodo', todo: { goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } }, warnings: Array<{ kind: ClaimWarningKind, todoId: string, owner: string, repository: string | null, writeScope: string, otherWriteScope: string }> }
    | { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownTodo', goalId: string, todoId: string }
   };

export type ReleaseClaimMutationVariables = Exact<{
  input: TodoActionInput;
}>;


export type ReleaseClaimMutation = { releaseClaim:
    | { __typename: 'ClaimedByOther', goalId: string, todoId: string, owner: string, claimedAt: string | null }
    | { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'Todo', goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownTodo', goalId: string, todoId: string }
   };

export type ResumeTodoMutationVariables = Exact<{
  input: TodoActionInput;
}>;


export type ResumeTodoMutation = { resumeTodo:
    | { __typename: 'ClaimedByOther', goalId: string, todoId: string, owner: string, claimedAt: string | null }
    | { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'Todo', goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownTodo', goalId: string, todoId: string }
   };

export type DeferTodoMutationVariables = Exact<{
  input: DeferTodoInput;
}>;


export type DeferTodoMutation = { deferTodo:
    | { __typename: 'ClaimedByOther', goalId: string, todoId: string, owner: string, claimedAt: string | null }
    | { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'Todo', goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownTodo', goalId: string, todoId: string }
   };

export type CloseNoFollowUpMutationVariables = Exact<{
  input: CloseNoFollowUpInput;
}>;


export type CloseNoFollowUpMutation = { closeNoFollowUp:
    | { __typename: 'ClaimedByOther', goalId: string, todoId: string, owner: string, claimedAt: string | null }
    | { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'Todo', goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownTodo', goalId: string, todoId: string }
   };

export type CompleteTodoMutationVariables = Exact<{
  input: CompleteTodoInput;
}>;


export type CompleteTodoMutation = { completeTodo:
    | { __typename: 'ClaimedByOther', goalId: string, todoId: string, owner: string, claimedAt: string | null }
    | { __typename: 'CompletedTodo', todo: { goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } }, successor: { goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } } | null }
    | { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownTodo', goalId: string, todoId: string }
   };

export type SupersedeTodoMutationVariables = Exact<{
  input: SupersedeTodoInput;
}>;


export type SupersedeTodoMutation = { supersedeTodo:
    | { __typename: 'ClaimedByOther', goalId: string, todoId: string, owner: string, claimedAt: string | null }
    | { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'SupersededTodo', todo: { goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } }, replacement: { goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } } }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownTodo', goalId: string, todoId: string }
   };

export type FrontierQueryVariables = Exact<{
  goalId: string | number;
  agentId?: string | number | null | undefined;
  runnable?: boolean | null | undefined;
  limit?: number | null | undefined;
}>;


export type FrontierQuery = { frontier:
    | { __typename: 'Frontier', goalId: string, agentId: string, seq: string, rowCount: number, runnableCount: number, omittedRowCount: number, capabilities: Array<string>, replanNotices: Array<ReplanObligationKind>, workspace: { repository: string, worktree: WorktreeKind, revision: string } | null, rows: Array<{ runnable: boolean, todo: { id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, claimedBy: string | null, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null } }, guards: Array<{ kind: FrontierGuardKind, detail: string, todoId: string | null, todoStatus: TodoStatus | null, gateId: string | null, scope: string | null, agentId: string | null, capability: string | null, condition: string | null, repository: string | null, writeScope: string | null, workspaceReason: WorkspaceGuardReason | null }> }> }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type GatesQueryVariables = Exact<{
  goalId: string | number;
}>;


export type GatesQuery = { gates: { goalId: string, rows: Array<{ goalId: string, id: string, kind: GateKind, granularity: GateGranularity, scopeKey: string, scope: string, reason: string, state: GateState, decision: GateDecision | null, decisionNote: string | null, expiresAt: string | null, openedAt: string, resolvedAt: string | null, openedBy: { kind: CallerKind, agentId: string | null }, resolvedBy: { kind: CallerKind, agentId: string | null } | null }>, scopeGap: { goalId: string, reason: ScopeGapReason } | null } };

export type OpenGateMutationVariables = Exact<{
  input: OpenGateInput;
}>;


export type OpenGateMutation = { openGate:
    | { __typename: 'Gate', goalId: string, id: string, kind: GateKind, granularity: GateGranularity, scopeKey: string, scope: string, reason: string, state: GateState, decision: GateDecision | null, decisionNote: string | null, expiresAt: string | null, openedAt: string, resolvedAt: string | null, openedBy: { kind: CallerKind, agentId: string | null }, resolvedBy: { kind: CallerKind, agentId: string | null } | null }
    | { __typename: 'ScopeGap', goalId: string, scopeGapReason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type ResolveGateMutationVariables = Exact<{
  input: ResolveGateInput;
}>;


export type ResolveGateMutation = { resolveGate:
    | { __typename: 'Gate', goalId: string, id: string, kind: GateKind, granularity: GateGranularity, scopeKey: string, scope: string, reason: string, state: GateState, decision: GateDecision | null, decisionNote: string | null, expiresAt: string | null, openedAt: string, resolvedAt: string | null, openedBy: { kind: CallerKind, agentId: string | null }, resolvedBy: { kind: CallerKind, agentId: string | null } | null }
    | { __typename: 'GateNotOpen', gate: { goalId: string, id: string, kind: GateKind, granularity: GateGranularity, scopeKey: string, scope: string, reason: string, state: GateState, decision: GateDecision | null, decisionNote: string | null, expiresAt: string | null, openedAt: string, resolvedAt: string | null, openedBy: { kind: CallerKind, agentId: string | null }, resolvedBy: { kind: CallerKind, agentId: string | null } | null } }
    | { __typename: 'ScopeGap', goalId: string, scopeGapReason: ScopeGapReason }
    | { __typename: 'UnknownGate', goalId: string, gateId: string }
   };

type LeaseResultFields_IllegalTransition_Fragment = { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind };

type LeaseResultFields_Lease_Fragment = { __typename: 'Lease', goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null };

type LeaseResultFields_ScopeGap_Fragment = { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason };

type LeaseResultFields_StaleFence_Fragment = { __typename: 'StaleFence', goalId: string, todoId: string, fence: string, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null } };

type LeaseResultFields_UnknownAgent_Fragment = { __typename: 'UnknownAgent', goalId: string, agentId: string };

type LeaseResultFields_UnknownTodo_Fragment = { __typename: 'UnknownTodo', goalId: string, todoId: string };

export type LeaseResultFieldsFragment =
  | LeaseResultFields_IllegalTransition_Fragment
  | LeaseResultFields_Lease_Fragment
  | LeaseResultFields_ScopeGap_Fragment
  | LeaseResultFields_StaleFence_Fragment
  | LeaseResultFields_UnknownAgent_Fragment
  | LeaseResultFields_UnknownTodo_Fragment
;

export type AcquireLeaseMutationVariables = Exact<{
  input: AcquireLeaseInput;
}>;


export type AcquireLeaseMutation = { acquireLease:
    | { __typename: 'ClaimedByOther', goalId: string, todoId: string, owner: string, claimedAt: string | null }
    | { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind }
    | { __typename: 'Lease', goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }
    | { __typename: 'LeaseHeld', goalId: string, todoId: string, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null } }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownTodo', goalId: string, todoId: string }
   };

export type RenewLeaseMutationVariables = Exact<{
  input: RenewLeaseInput;
}>;


export type RenewLeaseMutation = { renewLease:
    | { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind }
    | { __typename: 'Lease', goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'StaleFence', goalId: string, todoId: string, fence: string, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null } }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownTodo', goalId: string, todoId: string }
   };

export type ReleaseLeaseMutationVariables = Exact<{
  input: ReleaseLeaseInput;
}>;


export type ReleaseLeaseMutation = { releaseLease:
    | { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind }
    | { __typename: 'Lease', goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'StaleFence', goalId: string, todoId: string, fence: string, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null } }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownTodo', goalId: string, todoId: string }
   };

export type VisionsQueryVariables = Exact<{
  goalId: string | number;
}>;


export type VisionsQuery = { visions: { goalId: string, rows: Array<{ goalId: string, agentId: string, roleScope: string, visionSummary: string, acceptanceSummary: string, replanTriggerSummary: string, updatedAt: string, updatedBy: { kind: CallerKind, agentId: string | null } }>, scopeGap: { goalId: string, reason: ScopeGapReason } | null } };

export type SetVisionMutationVariables = Exact<{
  input: SetVisionInput;
}>;


export type SetVisionMutation = { setVision:
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'Vision', goalId: string, agentId: string, roleScope: string, visionSummary: string, acceptanceSummary: string, replanTriggerSummary: string, updatedAt: string, updatedBy: { kind: CallerKind, agentId: string | null } }
   };

export type DeclareWorkspaceMutationVariables = Exact<{
  input: DeclareWorkspaceInput;
}>;


export type DeclareWorkspaceMutation = { declareWorkspace:
    | { __typename: 'AgentWorkspace', goalId: string, agentId: string, workspace: { repository: string, worktree: WorktreeKind, revision: string, declaredAt: string } }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

type HandoffPacketFields_Handoff_Fragment = { id: string, goalId: string, todoId: string, sender: string | null, receiver: string | null, nextAction: string, validation: string, stopCondition: string, omitted: Array<string>, leaseTransferred: boolean, authorityBoundary: Array<string>, deliveryId: string | null, ledgerSeq: string, createdAt: string, senderWorkspace: { repository: string, worktree: WorktreeKind, revision: string } | null, evidence: Array<{ ref: string, freshness: EvidenceFreshness, recordedAt: string }>, todoAtHandoff: { title: string, status: TodoStatus, requiredCapability: string | null, requiredDecisionScopes: Array<string>, taskRepository: string | null, writeScope: Array<string>, gates: Array<{ gateId: string, scope: string, state: GateState, applies: GateApplication }> } };

type HandoffPacketFields_HandoffRead_Fragment = { id: string, goalId: string, todoId: string, sender: string | null, receiver: string | null, nextAction: string, validation: string, stopCondition: string, omitted: Array<string>, leaseTransferred: boolean, authorityBoundary: Array<string>, deliveryId: string | null, ledgerSeq: string, createdAt: string, senderWorkspace: { repository: string, worktree: WorktreeKind, revision: string } | null, evidence: Array<{ ref: string, freshness: EvidenceFreshness, recordedAt: string }>, todoAtHandoff: { title: string, status: TodoStatus, requiredCapability: string | null, requiredDecisionScopes: Array<string>, taskRepository: string | null, writeScope: Array<string>, gates: Array<{ gateId: string, scope: string, state: GateState, applies: GateApplication }> } };

export type HandoffPacketFieldsFragment =
  | HandoffPacketFields_Handoff_Fragment
  | HandoffPacketFields_HandoffRead_Fragment
;

export type HandoffTodoMutationVariables = Exact<{
  input: HandoffTodoInput;
}>;


export type HandoffTodoMutation = { handoffTodo:
    | { __typename: 'ClaimedByOther', goalId: string, todoId: string, owner: string, claimedAt: string | null }
    | { __typename: 'Handoff', id: string, goalId: string, todoId: string, sender: string | null, receiver: string | null, nextAction: string, validation: string, stopCondition: string, omitted: Array<string>, leaseTransferred: boolean, authorityBoundary: Array<string>, deliveryId: string | null, ledgerSeq: string, createdAt: string, todo: { goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } }, senderWorkspace: { repository: string, worktree: WorktreeKind, revision: string } | null, evidence: Array<{ ref: string, freshness: EvidenceFreshness, recordedAt: string }>, todoAtHandoff: { title: string, status: TodoStatus, requiredCapability: string | null, requiredDecisionScopes: Array<string>, taskRepository: string | null, writeScope: Array<string>, gates: Array<{ gateId: string, scope: string, state: GateState, applies: GateApplication }> } }
    | { __typename: 'HandoffRefused', refusal: HandoffRefusalReason, goalId: string, todoId: string, receiver: string | null, capability: string | null, delivery: { reason: DeliveryRefusalReason, target: string | null } | null }
    | { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind }
    | { __typename: 'LeaseHeld', goalId: string, todoId: string, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null } }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownTodo', goalId: string, todoId: string }
   };

export type HandoffQueryVariables = Exact<{
  goalId: string | number;
  handoffId: string | number;
  agentId?: string | number | null | undefined;
}>;


export type HandoffQuery = { handoff:
    | { __typename: 'HandoffRead', readFor: string, status: TodoStatus, live: boolean, runnable: boolean, claimedBy: string | null, capabilities: Array<string>, id: string, goalId: string, todoId: string, sender: string | null, receiver: string | null, nextAction: string, validation: string, stopCondition: string, omitted: Array<string>, leaseTransferred: boolean, authorityBoundary: Array<string>, deliveryId: string | null, ledgerSeq: string, createdAt: string, guards: Array<{ kind: FrontierGuardKind, detail: string }>, gates: Array<{ gateId: string, scope: string, state: GateState, applies: GateApplication }>, senderWorkspace: { repository: string, worktree: WorktreeKind, revision: string } | null, evidence: Array<{ ref: string, freshness: EvidenceFreshness, recordedAt: string }>, todoAtHandoff: { title: string, status: TodoStatus, requiredCapability: string | null, requiredDecisionScopes: Array<string>, taskRepository: string | null, writeScope: Array<string>, gates: Array<{ gateId: string, scope: string, state: GateState, applies: GateApplication }> } }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownHandoff', goalId: string, handoffId: string }
   };

export type GoalClosureReasonFieldsFragment = { kind: GoalClosureReasonKind, detail: string, todoId: string | null, taskClass: TaskClass | null, todoStatus: TodoStatus | null, gateId: string | null, agentId: string | null, obligations: Array<ReplanObligationKind> | null };

export type GoalClosureQueryVariables = Exact<{
  goalId: string | number;
}>;


export type GoalClosureQuery = { goalClosure:
    | { __typename: 'GoalClosure', goalId: string, closable: boolean, acceptanceEvidenceCount: number, reasons: Array<{ kind: GoalClosureReasonKind, detail: string, todoId: string | null, taskClass: TaskClass | null, todoStatus: TodoStatus | null, gateId: string | null, agentId: string | null, obligations: Array<ReplanObligationKind> | null }>, closure: { reason: string, acceptanceRefs: Array<string>, closedAt: string, ledgerSeq: string } | null }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
   };

export type CloseGoalMutationVariables = Exact<{
  input: CloseGoalInput;
}>;


export type CloseGoalMutation = { closeGoal:
    | { __typename: 'GoalClosed', closure: { goalId: string, reason: string, acceptanceRefs: Array<string>, closedAt: string, ledgerSeq: string } }
    | { __typename: 'GoalClosureRefused', goalId: string, reasons: Array<{ kind: GoalClosureReasonKind, detail: string, todoId: string | null, taskClass: TaskClass | null, todoStatus: TodoStatus | null, gateId: string | null, agentId: string | null, obligations: Array<ReplanObligationKind> | null }> }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
   };

export type SetDependenciesMutationVariables = Exact<{
  input: SetDependenciesInput;
}>;


export type SetDependenciesMutation = { setDependencies:
    | { __typename: 'ClaimedByOther', goalId: string, todoId: string, owner: string, claimedAt: string | null }
    | { __typename: 'IllegalTransition', goalId: string, todoId: string, from: TodoStatus, attempted: TodoTransitionKind }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'Todo', goalId: string, id: string, title: string, taskClass: TaskClass, status: TodoStatus, priority: number, dependsOn: Array<string>, resumeWhen: Array<string>, requiredDecisionScopes: Array<string>, requiredCapability: string | null, taskRepository: string | null, writeScope: Array<string>, continuationPolicy: ContinuationPolicy, evidenceRefs: Array<string>, successorOf: string | null, supersededBy: string | null, supersedeReason: string | null, deferReason: string | null, noFollowUpReason: string | null, createdAt: string, updatedAt: string, closedAt: string | null, claim: { agentId: string, claimedAt: string | null } | null, lease: { goalId: string, todoId: string, holder: string | null, fence: string, state: LeaseState, expiresAt: string | null }, createdBy: { kind: CallerKind, agentId: string | null }, updatedBy: { kind: CallerKind, agentId: string | null } }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
    | { __typename: 'UnknownTodo', goalId: string, todoId: string }
   };

export type SetCapabilitiesMutationVariables = Exact<{
  input: SetCapabilitiesInput;
}>;


export type SetCapabilitiesMutation = { setCapabilities:
    | { __typename: 'AgentCapabilities', goalId: string, agentId: string, capabilities: Array<string>, updatedAt: string }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type RecordExternalEventMutationVariables = Exact<{
  input: RecordExternalEventInput;
}>;


export type RecordExternalEventMutation = { recordExternalEvent:
    | { __typename: 'ExternalEvent', replayed: boolean, waitingTodoIds: Array<string>, fact: { id: string, goalId: string, kind: ExternalEventKind, repository: string, ref: string, observedAt: string, recordedAt: string, recordedBy: { kind: CallerKind, agentId: string | null } } }
    | { __typename: 'ScopeGap', goalId: string, reason: ScopeGapReason }
    | { __typename: 'UnknownAgent', goalId: string, agentId: string }
   };

export type TodoTitlesQueryVariables = Exact<{
  goalId: string | number;
  limit?: number | null | undefined;
}>;


export type TodoTitlesQuery = { todos: { goalId: string, ledgerSeq: string, omittedRowCount: number, rows: Array<{ id: string, title: string, status: TodoStatus }>, scopeGap: { goalId: string, reason: ScopeGapReason } | null } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const RetentionGapFieldsFragmentDoc = new TypedDocumentString(`
    fragment RetentionGapFields on RetentionGap {
  goalId
  after
  resumeAfter
}
    `, {"fragmentName":"RetentionGapFields"}) as unknown as TypedDocumentString<RetentionGapFieldsFragment, unknown>;
export const PresenceFieldsFragmentDoc = new TypedDocumentString(`
    fragment PresenceFields on Presence {
  provider
  host
  providerSessionRef
  occupantRef
  liveness
  reportedLiveness
  observedAt
  basis
  explain
  blockedKind
  stateChangeSeq
  stale
  coverageGap
  endedAt
}
    `, {"fragmentName":"PresenceFields"}) as unknown as TypedDocumentString<PresenceFieldsFragment, unknown>;
export const AttentionRowFieldsFragmentDoc = new TypedDocumentString(`
    fragment AttentionRowFields on AttentionRow {
  reason
  agentId
  todoId
  gateId
  deliveryId
  provider
  agentIds
  coverageGap
  liveness
  blockedKind
  since
}
    `, {"fragmentName":"AttentionRowFields"}) as unknown as TypedDocumentString<AttentionRowFieldsFragment, unknown>;
export const ActorFieldsFragmentDoc = new TypedDocumentString(`
    fragment ActorFields on Actor {
  kind
  agentId
}
    `, {"fragmentName":"ActorFields"}) as unknown as TypedDocumentString<ActorFieldsFragment, unknown>;
export const GateFieldsFragmentDoc = new TypedDocumentString(`
    fragment GateFields on Gate {
  goalId
  id
  kind
  granularity
  scopeKey
  scope
  reason
  state
  decision
  decisionNote
  expiresAt
  openedAt
  openedBy {
    ...ActorFields
  }
  resolvedAt
  resolvedBy {
    ...ActorFields
  }
}
    fragment ActorFields on Actor {
  kind
  agentId
}`, {"fragmentName":"GateFields"}) as unknown as TypedDocumentString<GateFieldsFragment, unknown>;
export const VisionFieldsFragmentDoc = new TypedDocumentString(`
    fragment VisionFields on Vision {
  goalId
  agentId
  roleScope
  visionSummary
  acceptanceSummary
  replanTriggerSummary
  updatedAt
  updatedBy {
    ...ActorFields
  }
}
    fragment ActorFields on Actor {
  kind
  agentId
}`, {"fragmentName":"VisionFields"}) as unknown as TypedDocumentString<VisionFieldsFragment, unknown>;
export const AgentFieldsFragmentDoc = new TypedDocumentString(`
    fragment AgentFields on Agent {
  goalId
  agentId
  agentModel
  hostSurface
  registeredAt
  retiredAt
}
    `, {"fragmentName":"AgentFields"}) as unknown as TypedDocumentString<AgentFieldsFragment, unknown>;
export const CredentialFieldsFragmentDoc = new TypedDocumentString(`
    fragment CredentialFields on Credential {
  id
  kind
  label
  goalId
  agentId
  goalIds
  providerId
  createdAt
  revokedAt
  expiresAt
  status
  lastUsedAt
}
    `, {"fragmentName":"CredentialFields"}) as unknown as TypedDocumentString<CredentialFieldsFragment, unknown>;
export const OutcomeChangeFieldsFragmentDoc = new TypedDocumentString(`
    fragment OutcomeChangeFields on DeliveryOutcomeChange {
  deliveryId
  version
  outcome
  previousOutcome
  reason
  liveness
  seq
  effectiveAt
  recordedAt
  final
}
    `, {"fragmentName":"OutcomeChangeFields"}) as unknown as TypedDocumentString<OutcomeChangeFieldsFragment, unknown>;
export const DeliveryFieldsFragmentDoc = new TypedDocumentString(`
    fragment DeliveryFields on Delivery {
  id
  goalId
  from
  to
  sender {
    kind
    agentId
    goalId
    credentialId
  }
  kind
  subject
  threadId
  replyTo
  todoId
  bodyPreview
  seq
  submittedAt
  idempotencyKey
  replayed
  outcome
  outcomeVersion
  outcomeChange {
    ...OutcomeChangeFields
  }
  history {
    ...OutcomeChangeFields
  }
  limitations
  pin {
    state
    provider
    providerSessionRef
    occupantRef
    baselineSeq
  }
  receipt {
    submittedAt
    notifiedAt
    notices {
      via
      provider
      providerSessionRef
      occupantRef
      text
      observedAt
    }
    pushedAt
    pushCount
    readAt
    processedAt
  }
  activityWindowMs
  windowEndsAt
  timeoutMs
  deadline
}
    fragment OutcomeChangeFields on DeliveryOutcomeChange {
  deliveryId
  version
  outcome
  previousOutcome
  reason
  liveness
  seq
  effectiveAt
  recordedAt
  final
}`, {"fragmentName":"DeliveryFields"}) as unknown as TypedDocumentString<DeliveryFieldsFragment, unknown>;
export const InboxMessageFieldsFragmentDoc = new TypedDocumentString(`
    fragment InboxMessageFields on InboxMessage {
  id
  goalId
  seq
  from
  to
  sender {
    kind
    agentId
    goalId
    credentialId
  }
  kind
  subject
  body
  bodyPreview
  threadId
  replyTo
  todoId
  submittedAt
  readAt
  processedAt
  takenAt
  takeCount
  pushedAt
  pushCount
  active
}
    `, {"fragmentName":"InboxMessageFields"}) as unknown as TypedDocumentString<InboxMessageFieldsFragment, unknown>;
export const DeliveryAlertFieldsFragmentDoc = new TypedDocumentString(`
    fragment DeliveryAlertFields on DeliveryAlert {
  deliveryId
  to
  from
  subject
  since
}
    `, {"fragmentName":"DeliveryAlertFields"}) as unknown as TypedDocumentString<DeliveryAlertFieldsFragment, unknown>;
export const LedgerEventFieldsFragmentDoc = new TypedDocumentString(`
    fragment LedgerEventFields on LedgerEvent {
  goalId
  seq
  eventId
  eventKind
  source
  agentId
  todoId
  gateId
  relatedAgentId
  classification
  status
  summary
  evidenceRefs
  goalChange
  material
  relevance
  citedDigest
  recordedAt
  recordedBy {
    ...ActorFields
  }
  boundary {
    rawLogsRecorded
    rawTrajectoryRecorded
    credentialValuesRecorded
    absolutePathsRecorded
    redactionCount
  }
}
    fragment ActorFields on Actor {
  kind
  agentId
}`, {"fragmentName":"LedgerEventFields"}) as unknown as TypedDocumentString<LedgerEventFieldsFragment, unknown>;
export const RosterFieldsFragmentDoc = new TypedDocumentString(`
    fragment RosterFields on Roster {
  goalId
  self
  selfKind
  primaryPeer
  peers {
    agentId
    status
    source
    attachedAt
    lastActiveAt
    isPrimary
  }
}
    `, {"fragmentName":"RosterFields"}) as unknown as TypedDocumentString<RosterFieldsFragment, unknown>;
export const WaitPinFieldsFragmentDoc = new TypedDocumentString(`
    fragment WaitPinFields on WaitPin {
  goalId
  agentId
  todoId
  provider
  providerSessionRef
  occupantRef
}
    `, {"fragmentName":"WaitPinFields"}) as unknown as TypedDocumentString<WaitPinFieldsFragment, unknown>;
export const WaitFieldsFragmentDoc = new TypedDocumentString(`
    fragment WaitFields on Wait {
  id
  goalId
  status
  reason
  accept
  timeoutMs
  deadline
  createdAt
  resolvedAt
  baselineSeq
  limitations
  pin {
    ...WaitPinFields
  }
  targets {
    agentId
    pinned
    baselineSeq
    limitation
    pin {
      ...WaitPinFields
    }
  }
  resolution {
    agentId
    liveness
    seq
  }
}
    fragment WaitPinFields on WaitPin {
  goalId
  agentId
  todoId
  provider
  providerSessionRef
  occupantRef
}`, {"fragmentName":"WaitFields"}) as unknown as TypedDocumentString<WaitFieldsFragment, unknown>;
export const UnknownAgentFieldsFragmentDoc = new TypedDocumentString(`
    fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
    `, {"fragmentName":"UnknownAgentFields"}) as unknown as TypedDocumentString<UnknownAgentFieldsFragment, unknown>;
export const ScopeGapResultFieldsFragmentDoc = new TypedDocumentString(`
    fragment ScopeGapResultFields on ScopeGap {
  goalId
  scopeGapReason: reason
}
    `, {"fragmentName":"ScopeGapResultFields"}) as unknown as TypedDocumentString<ScopeGapResultFieldsFragment, unknown>;
export const WaitResultFieldsFragmentDoc = new TypedDocumentString(`
    fragment WaitResultFields on WaitResult {
  __typename
  ... on Wait {
    ...WaitFields
  }
  ... on UnknownWait {
    waitId
  }
  ... on UnknownAgent {
    ...UnknownAgentFields
  }
  ... on ScopeGap {
    ...ScopeGapResultFields
  }
  ... on PendingWaitsLimited {
    limit
    pending
  }
}
    fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment ScopeGapResultFields on ScopeGap {
  goalId
  scopeGapReason: reason
}
fragment WaitPinFields on WaitPin {
  goalId
  agentId
  todoId
  provider
  providerSessionRef
  occupantRef
}
fragment WaitFields on Wait {
  id
  goalId
  status
  reason
  accept
  timeoutMs
  deadline
  createdAt
  resolvedAt
  baselineSeq
  limitations
  pin {
    ...WaitPinFields
  }
  targets {
    agentId
    pinned
    baselineSeq
    limitation
    pin {
      ...WaitPinFields
    }
  }
  resolution {
    agentId
    liveness
    seq
  }
}`, {"fragmentName":"WaitResultFields"}) as unknown as TypedDocumentString<WaitResultFieldsFragment, unknown>;
export const LeaseFieldsFragmentDoc = new TypedDocumentString(`
    fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
    `, {"fragmentName":"LeaseFields"}) as unknown as TypedDocumentString<LeaseFieldsFragment, unknown>;
export const TodoFieldsFragmentDoc = new TypedDocumentString(`
    fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}
    fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}`, {"fragmentName":"TodoFields"}) as unknown as TypedDocumentString<TodoFieldsFragment, unknown>;
export const ClaimedByOtherFieldsFragmentDoc = new TypedDocumentString(`
    fragment ClaimedByOtherFields on ClaimedByOther {
  goalId
  todoId
  owner
  claimedAt
}
    `, {"fragmentName":"ClaimedByOtherFields"}) as unknown as TypedDocumentString<ClaimedByOtherFieldsFragment, unknown>;
export const IllegalTransitionFieldsFragmentDoc = new TypedDocumentString(`
    fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}
    `, {"fragmentName":"IllegalTransitionFields"}) as unknown as TypedDocumentString<IllegalTransitionFieldsFragment, unknown>;
export const UnknownTodoFieldsFragmentDoc = new TypedDocumentString(`
    fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
    `, {"fragmentName":"UnknownTodoFields"}) as unknown as TypedDocumentString<UnknownTodoFieldsFragment, unknown>;
export const ScopeGapFieldsFragmentDoc = new TypedDocumentString(`
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
    `, {"fragmentName":"ScopeGapFields"}) as unknown as TypedDocumentString<ScopeGapFieldsFragment, unknown>;
export const TodoResultFieldsFragmentDoc = new TypedDocumentString(`
    fragment TodoResultFields on TodoResult {
  __typename
  ... on Todo {
    ...TodoFields
  }
  ... on ClaimedByOther {
    ...ClaimedByOtherFields
  }
  ... on IllegalTransition {
    ...IllegalTransitionFields
  }
  ... on UnknownAgent {
    ...UnknownAgentFields
  }
  ... on UnknownTodo {
    ...UnknownTodoFields
  }
  ... on ScopeGap {
    ...ScopeGapFields
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment ClaimedByOtherFields on ClaimedByOther {
  goalId
  todoId
  owner
  claimedAt
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}`, {"fragmentName":"TodoResultFields"}) as unknown as TypedDocumentString<TodoResultFieldsFragment, unknown>;
export const ClaimWarningFieldsFragmentDoc = new TypedDocumentString(`
    fragment ClaimWarningFields on ClaimWarning {
  kind
  todoId
  owner
  repository
  writeScope
  otherWriteScope
}
    `, {"fragmentName":"ClaimWarningFields"}) as unknown as TypedDocumentString<ClaimWarningFieldsFragment, unknown>;
export const LeaseResultFieldsFragmentDoc = new TypedDocumentString(`
    fragment LeaseResultFields on LeaseResult {
  __typename
  ... on Lease {
    ...LeaseFields
  }
  ... on StaleFence {
    goalId
    todoId
    fence
    lease {
      ...LeaseFields
    }
  }
  ... on IllegalTransition {
    ...IllegalTransitionFields
  }
  ... on UnknownAgent {
    ...UnknownAgentFields
  }
  ... on UnknownTodo {
    ...UnknownTodoFields
  }
  ... on ScopeGap {
    ...ScopeGapFields
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}`, {"fragmentName":"LeaseResultFields"}) as unknown as TypedDocumentString<LeaseResultFieldsFragment, unknown>;
export const HandoffPacketFieldsFragmentDoc = new TypedDocumentString(`
    fragment HandoffPacketFields on HandoffPacket {
  id
  goalId
  todoId
  sender
  receiver
  nextAction
  validation
  stopCondition
  omitted
  leaseTransferred
  authorityBoundary
  deliveryId
  ledgerSeq
  createdAt
  senderWorkspace {
    repository
    worktree
    revision
  }
  evidence {
    ref
    freshness
    recordedAt
  }
  todoAtHandoff {
    title
    status
    requiredCapability
    requiredDecisionScopes
    taskRepository
    writeScope
    gates {
      gateId
      scope
      state
      applies
    }
  }
}
    `, {"fragmentName":"HandoffPacketFields"}) as unknown as TypedDocumentString<HandoffPacketFieldsFragment, unknown>;
export const GoalClosureReasonFieldsFragmentDoc = new TypedDocumentString(`
    fragment GoalClosureReasonFields on GoalClosureReason {
  kind
  detail
  todoId
  taskClass
  todoStatus
  gateId
  agentId
  obligations
}
    `, {"fragmentName":"GoalClosureReasonFields"}) as unknown as TypedDocumentString<GoalClosureReasonFieldsFragment, unknown>;
export const TodoPageDocument = new TypedDocumentString(`
    query TodoPage($goalId: ID!, $ids: [ID!], $offset: Int, $limit: Int) {
  todoPage(goalId: $goalId, ids: $ids, offset: $offset, limit: $limit) {
    goalId
    seq
    ledgerSeq
    omittedRowCount
    rows {
      ...TodoFields
    }
    scopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}`) as unknown as TypedDocumentString<TodoPageQuery, TodoPageQueryVariables>;
export const TodoNamesDocument = new TypedDocumentString(`
    query TodoNames($goalId: ID!, $ids: [ID!]!) {
  todoPage(goalId: $goalId, ids: $ids, limit: 1000) {
    goalId
    ledgerSeq
    rows {
      id
      title
      status
      taskClass
    }
    scopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}`) as unknown as TypedDocumentString<TodoNamesQuery, TodoNamesQueryVariables>;
export const DashboardFrontierDocument = new TypedDocumentString(`
    query DashboardFrontier($goalId: ID!, $agentId: ID) {
  frontier(goalId: $goalId, agentId: $agentId) {
    __typename
    ... on Frontier {
      goalId
      agentId
      runnableCount
      rows {
        runnable
        todo {
          id
          title
          status
          priority
          claimedBy
        }
        guards {
          kind
          detail
          todoId
          scope
        }
      }
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}`) as unknown as TypedDocumentString<DashboardFrontierQuery, DashboardFrontierQueryVariables>;
export const DeliverDocument = new TypedDocumentString(`
    mutation Deliver($input: DeliverInput!) {
  deliver(input: $input) {
    __typename
    ... on Delivery {
      ...DeliveryFields
    }
    ... on DeliveryRefused {
      goalId
      reason
      target
      choices
      notReadyReason
      blocked {
        liveness
        kind
        observedAt
        stateChangeSeq
      }
      scopeGap {
        ...ScopeGapFields
      }
    }
    ... on IdempotencyConflict {
      goalId
      idempotencyKey
      differingFields
      original {
        ...DeliveryFields
      }
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment OutcomeChangeFields on DeliveryOutcomeChange {
  deliveryId
  version
  outcome
  previousOutcome
  reason
  liveness
  seq
  effectiveAt
  recordedAt
  final
}
fragment DeliveryFields on Delivery {
  id
  goalId
  from
  to
  sender {
    kind
    agentId
    goalId
    credentialId
  }
  kind
  subject
  threadId
  replyTo
  todoId
  bodyPreview
  seq
  submittedAt
  idempotencyKey
  replayed
  outcome
  outcomeVersion
  outcomeChange {
    ...OutcomeChangeFields
  }
  history {
    ...OutcomeChangeFields
  }
  limitations
  pin {
    state
    provider
    providerSessionRef
    occupantRef
    baselineSeq
  }
  receipt {
    submittedAt
    notifiedAt
    notices {
      via
      provider
      providerSessionRef
      occupantRef
      text
      observedAt
    }
    pushedAt
    pushCount
    readAt
    processedAt
  }
  activityWindowMs
  windowEndsAt
  timeoutMs
  deadline
}`) as unknown as TypedDocumentString<DeliverMutation, DeliverMutationVariables>;
export const DeliveryDocument = new TypedDocumentString(`
    query Delivery($id: ID!) {
  delivery(id: $id) {
    __typename
    ... on Delivery {
      ...DeliveryFields
    }
    ... on UnknownDelivery {
      deliveryId
    }
  }
}
    fragment OutcomeChangeFields on DeliveryOutcomeChange {
  deliveryId
  version
  outcome
  previousOutcome
  reason
  liveness
  seq
  effectiveAt
  recordedAt
  final
}
fragment DeliveryFields on Delivery {
  id
  goalId
  from
  to
  sender {
    kind
    agentId
    goalId
    credentialId
  }
  kind
  subject
  threadId
  replyTo
  todoId
  bodyPreview
  seq
  submittedAt
  idempotencyKey
  replayed
  outcome
  outcomeVersion
  outcomeChange {
    ...OutcomeChangeFields
  }
  history {
    ...OutcomeChangeFields
  }
  limitations
  pin {
    state
    provider
    providerSessionRef
    occupantRef
    baselineSeq
  }
  receipt {
    submittedAt
    notifiedAt
    notices {
      via
      provider
      providerSessionRef
      occupantRef
      text
      observedAt
    }
    pushedAt
    pushCount
    readAt
    processedAt
  }
  activityWindowMs
  windowEndsAt
  timeoutMs
  deadline
}`) as unknown as TypedDocumentString<DeliveryQuery, DeliveryQueryVariables>;
export const DeliveryOutcomeDocument = new TypedDocumentString(`
    subscription DeliveryOutcome($deliveryId: ID!, $after: Int) {
  deliveryOutcome(deliveryId: $deliveryId, after: $after) {
    __typename
    ... on DeliveryOutcomeChange {
      ...OutcomeChangeFields
    }
    ... on UnknownDelivery {
      deliveryId
    }
  }
}
    fragment OutcomeChangeFields on DeliveryOutcomeChange {
  deliveryId
  version
  outcome
  previousOutcome
  reason
  liveness
  seq
  effectiveAt
  recordedAt
  final
}`) as unknown as TypedDocumentString<DeliveryOutcomeSubscription, DeliveryOutcomeSubscriptionVariables>;
export const InboxDocument = new TypedDocumentString(`
    query Inbox($goalId: ID!, $unread: Boolean, $unprocessed: Boolean, $tail: Int, $after: Seq) {
  inbox(
    goalId: $goalId
    unread: $unread
    unprocessed: $unprocessed
    tail: $tail
    after: $after
  ) {
    __typename
    ... on Inbox {
      goalId
      recipient
      cursor
      activeMessageId
      unreadCount
      unprocessedCount
      omittedCount
      messages {
        ...InboxMessageFields
      }
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment InboxMessageFields on InboxMessage {
  id
  goalId
  seq
  from
  to
  sender {
    kind
    agentId
    goalId
    credentialId
  }
  kind
  subject
  body
  bodyPreview
  threadId
  replyTo
  todoId
  submittedAt
  readAt
  processedAt
  takenAt
  takeCount
  pushedAt
  pushCount
  active
}`) as unknown as TypedDocumentString<InboxQuery, InboxQueryVariables>;
export const TakeNextMessageDocument = new TypedDocumentString(`
    mutation TakeNextMessage($goalId: ID!) {
  takeNextMessage(goalId: $goalId) {
    __typename
    ... on TakenMessage {
      repeated
      message {
        ...InboxMessageFields
      }
    }
    ... on InboxEmpty {
      goalId
      recipient
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment InboxMessageFields on InboxMessage {
  id
  goalId
  seq
  from
  to
  sender {
    kind
    agentId
    goalId
    credentialId
  }
  kind
  subject
  body
  bodyPreview
  threadId
  replyTo
  todoId
  submittedAt
  readAt
  processedAt
  takenAt
  takeCount
  pushedAt
  pushCount
  active
}`) as unknown as TypedDocumentString<TakeNextMessageMutation, TakeNextMessageMutationVariables>;
export const MarkReadDocument = new TypedDocumentString(`
    mutation MarkRead($ids: [ID!]!) {
  markRead(ids: $ids) {
    __typename
    ... on MarkedRead {
      messages {
        ...InboxMessageFields
      }
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment InboxMessageFields on InboxMessage {
  id
  goalId
  seq
  from
  to
  sender {
    kind
    agentId
    goalId
    credentialId
  }
  kind
  subject
  body
  bodyPreview
  threadId
  replyTo
  todoId
  submittedAt
  readAt
  processedAt
  takenAt
  takeCount
  pushedAt
  pushCount
  active
}`) as unknown as TypedDocumentString<MarkReadMutation, MarkReadMutationVariables>;
export const ResolveMessageDocument = new TypedDocumentString(`
    mutation ResolveMessage($id: ID!) {
  resolveMessage(id: $id) {
    __typename
    ... on InboxMessage {
      ...InboxMessageFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment InboxMessageFields on InboxMessage {
  id
  goalId
  seq
  from
  to
  sender {
    kind
    agentId
    goalId
    credentialId
  }
  kind
  subject
  body
  bodyPreview
  threadId
  replyTo
  todoId
  submittedAt
  readAt
  processedAt
  takenAt
  takeCount
  pushedAt
  pushCount
  active
}`) as unknown as TypedDocumentString<ResolveMessageMutation, ResolveMessageMutationVariables>;
export const ReleaseMessageDocument = new TypedDocumentString(`
    mutation ReleaseMessage($id: ID!) {
  releaseMessage(id: $id) {
    __typename
    ... on InboxMessage {
      ...InboxMessageFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment InboxMessageFields on InboxMessage {
  id
  goalId
  seq
  from
  to
  sender {
    kind
    agentId
    goalId
    credentialId
  }
  kind
  subject
  body
  bodyPreview
  threadId
  replyTo
  todoId
  submittedAt
  readAt
  processedAt
  takenAt
  takeCount
  pushedAt
  pushCount
  active
}`) as unknown as TypedDocumentString<ReleaseMessageMutation, ReleaseMessageMutationVariables>;
export const RecordSessionPushDocument = new TypedDocumentString(`
    mutation RecordSessionPush($id: ID!) {
  recordSessionPush(id: $id) {
    __typename
    ... on InboxMessage {
      ...InboxMessageFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment InboxMessageFields on InboxMessage {
  id
  goalId
  seq
  from
  to
  sender {
    kind
    agentId
    goalId
    credentialId
  }
  kind
  subject
  body
  bodyPreview
  threadId
  replyTo
  todoId
  submittedAt
  readAt
  processedAt
  takenAt
  takeCount
  pushedAt
  pushCount
  active
}`) as unknown as TypedDocumentString<RecordSessionPushMutation, RecordSessionPushMutationVariables>;
export const InboxMessagesDocument = new TypedDocumentString(`
    subscription InboxMessages($goalId: ID!, $after: Seq) {
  inboxMessages(goalId: $goalId, after: $after) {
    __typename
    ... on InboxMessage {
      ...InboxMessageFields
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
    ... on RetentionGap {
      ...RetentionGapFields
    }
  }
}
    fragment RetentionGapFields on RetentionGap {
  goalId
  after
  resumeAfter
}
fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment InboxMessageFields on InboxMessage {
  id
  goalId
  seq
  from
  to
  sender {
    kind
    agentId
    goalId
    credentialId
  }
  kind
  subject
  body
  bodyPreview
  threadId
  replyTo
  todoId
  submittedAt
  readAt
  processedAt
  takenAt
  takeCount
  pushedAt
  pushCount
  active
}`) as unknown as TypedDocumentString<InboxMessagesSubscription, InboxMessagesSubscriptionVariables>;
export const DeliveriesDocument = new TypedDocumentString(`
    query Deliveries($goalId: ID!, $agentId: ID!, $direction: DeliveryDirection, $limit: Int, $before: Seq) {
  deliveries(
    goalId: $goalId
    agentId: $agentId
    direction: $direction
    limit: $limit
    before: $before
  ) {
    goalId
    agentId
    direction
    hasOlder
    olderCursor
    limitations
    scopeGap {
      ...ScopeGapFields
    }
    rows {
      ...DeliveryFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment OutcomeChangeFields on DeliveryOutcomeChange {
  deliveryId
  version
  outcome
  previousOutcome
  reason
  liveness
  seq
  effectiveAt
  recordedAt
  final
}
fragment DeliveryFields on Delivery {
  id
  goalId
  from
  to
  sender {
    kind
    agentId
    goalId
    credentialId
  }
  kind
  subject
  threadId
  replyTo
  todoId
  bodyPreview
  seq
  submittedAt
  idempotencyKey
  replayed
  outcome
  outcomeVersion
  outcomeChange {
    ...OutcomeChangeFields
  }
  history {
    ...OutcomeChangeFields
  }
  limitations
  pin {
    state
    provider
    providerSessionRef
    occupantRef
    baselineSeq
  }
  receipt {
    submittedAt
    notifiedAt
    notices {
      via
      provider
      providerSessionRef
      occupantRef
      text
      observedAt
    }
    pushedAt
    pushCount
    readAt
    processedAt
  }
  activityWindowMs
  windowEndsAt
  timeoutMs
  deadline
}`) as unknown as TypedDocumentString<DeliveriesQuery, DeliveriesQueryVariables>;
export const DeliveryHealthDocument = new TypedDocumentString(`
    query DeliveryHealth($goalId: ID!) {
  deliveryHealth(goalId: $goalId) {
    goalId
    checkedAt
    scopeGap {
      ...ScopeGapFields
    }
    unread {
      agentId
      count
      oldest {
        ...DeliveryAlertFields
      }
    }
    offeredNotTaken {
      ...DeliveryAlertFields
    }
    stalled {
      ...DeliveryAlertFields
    }
    expired {
      ...DeliveryAlertFields
    }
    doorbell {
      listening
      reason
      since
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment DeliveryAlertFields on DeliveryAlert {
  deliveryId
  to
  from
  subject
  since
}`) as unknown as TypedDocumentString<DeliveryHealthQuery, DeliveryHealthQueryVariables>;
export const DirectoryDocument = new TypedDocumentString(`
    query Directory($goalId: ID!, $limit: Int) {
  directory(goalId: $goalId, limit: $limit) {
    schemaVersion
    goalId
    collectedAt
    scope
    audience
    rows {
      agentId
      registered
      agentModel
      hostSurface
      work {
        todoId
        claimed
        lease
      }
      presence {
        ...PresenceFields
      }
      observationLimits
    }
    registeredAgentCount
    omittedRowCount
    limitations
    scopeGap {
      ...ScopeGapFields
    }
    rollup {
      ...AttentionRowFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment PresenceFields on Presence {
  provider
  host
  providerSessionRef
  occupantRef
  liveness
  reportedLiveness
  observedAt
  basis
  explain
  blockedKind
  stateChangeSeq
  stale
  coverageGap
  endedAt
}
fragment AttentionRowFields on AttentionRow {
  reason
  agentId
  todoId
  gateId
  deliveryId
  provider
  agentIds
  coverageGap
  liveness
  blockedKind
  since
}`) as unknown as TypedDocumentString<DirectoryQuery, DirectoryQueryVariables>;
export const AttentionDocument = new TypedDocumentString(`
    query Attention($goalId: ID!, $staleClaimMs: Int) {
  attention(goalId: $goalId, staleClaimMs: $staleClaimMs) {
    goalId
    rows {
      ...AttentionRowFields
    }
    scopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment AttentionRowFields on AttentionRow {
  reason
  agentId
  todoId
  gateId
  deliveryId
  provider
  agentIds
  coverageGap
  liveness
  blockedKind
  since
}`) as unknown as TypedDocumentString<AttentionQuery, AttentionQueryVariables>;
export const ObserveDocument = new TypedDocumentString(`
    query Observe($goalId: ID!, $agentId: ID!, $source: ObservationSource!, $lines: Int!) {
  observe(goalId: $goalId, agentId: $agentId, source: $source, lines: $lines) {
    __typename
    ... on Observation {
      goalId
      agentId
      provider
      source
      lines
      lineBound
      capturedAt
      advisory
      limits
      redactionCount
    }
    ... on ObservationGap {
      goalId
      agentId
      source
      reason
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapResultFields
    }
  }
}
    fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment ScopeGapResultFields on ScopeGap {
  goalId
  scopeGapReason: reason
}`) as unknown as TypedDocumentString<ObserveQuery, ObserveQueryVariables>;
export const PresenceChangedDocument = new TypedDocumentString(`
    subscription PresenceChanged($goalId: ID!, $agentIds: [ID!], $after: Seq) {
  presenceChanged(goalId: $goalId, agentIds: $agentIds, after: $after) {
    goalId
    agentId
    seq
    previousLiveness
    presence {
      ...PresenceFields
    }
    scopeGap {
      ...ScopeGapFields
    }
    retentionGap {
      ...RetentionGapFields
    }
  }
}
    fragment RetentionGapFields on RetentionGap {
  goalId
  after
  resumeAfter
}
fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment PresenceFields on Presence {
  provider
  host
  providerSessionRef
  occupantRef
  liveness
  reportedLiveness
  observedAt
  basis
  explain
  blockedKind
  stateChangeSeq
  stale
  coverageGap
  endedAt
}`) as unknown as TypedDocumentString<PresenceChangedSubscription, PresenceChangedSubscriptionVariables>;
export const EvidenceLedgerDocument = new TypedDocumentString(`
    query EvidenceLedger($goalId: ID!, $agentId: ID!, $todoId: ID, $since: DateTime, $eventKind: LedgerEventKind, $limit: Int, $before: Seq, $includeOtherAgentFrontier: Boolean) {
  evidenceLedger(
    goalId: $goalId
    agentId: $agentId
    todoId: $todoId
    since: $since
    eventKind: $eventKind
    limit: $limit
    before: $before
    includeOtherAgentFrontier: $includeOtherAgentFrontier
  ) {
    schemaVersion
    goalId
    agentId
    generatedAt
    source {
      eventLog
      workGraph
      deliveries
    }
    scope {
      audience
      currentAgentDetail
      otherAgentDetail
      lanePrefixes
    }
    filters {
      todoId
      since
      eventKind
      limit
      before
      includeOtherAgentFrontier
    }
    events {
      ...LedgerEventFields
    }
    otherAgentFrontier {
      agentId
      visionSummary
      topTodo
      topTodoId
      handoffState
      latestMaterialAt
    }
    omittedFrontierRowCount
    page {
      headSeq
      olderCursor
      hasOlder
    }
    readerHints {
      requiredBefore
      nextRequiredReads {
        query
        reason
      }
    }
    digest
    scopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LedgerEventFields on LedgerEvent {
  goalId
  seq
  eventId
  eventKind
  source
  agentId
  todoId
  gateId
  relatedAgentId
  classification
  status
  summary
  evidenceRefs
  goalChange
  material
  relevance
  citedDigest
  recordedAt
  recordedBy {
    ...ActorFields
  }
  boundary {
    rawLogsRecorded
    rawTrajectoryRecorded
    credentialValuesRecorded
    absolutePathsRecorded
    redactionCount
  }
}`) as unknown as TypedDocumentString<EvidenceLedgerQuery, EvidenceLedgerQueryVariables>;
export const RecordEventDocument = new TypedDocumentString(`
    mutation RecordEvent($input: RecordEventInput!) {
  recordEvent(input: $input) {
    __typename
    ... on LedgerEvent {
      ...LedgerEventFields
    }
    ... on UnknownAgent {
      goalId
      unknownAgentId: agentId
    }
    ... on UnknownTodo {
      goalId
      unknownTodoId: todoId
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LedgerEventFields on LedgerEvent {
  goalId
  seq
  eventId
  eventKind
  source
  agentId
  todoId
  gateId
  relatedAgentId
  classification
  status
  summary
  evidenceRefs
  goalChange
  material
  relevance
  citedDigest
  recordedAt
  recordedBy {
    ...ActorFields
  }
  boundary {
    rawLogsRecorded
    rawTrajectoryRecorded
    credentialValuesRecorded
    absolutePathsRecorded
    redactionCount
  }
}`) as unknown as TypedDocumentString<RecordEventMutation, RecordEventMutationVariables>;
export const RecordReplanCheckpointDocument = new TypedDocumentString(`
    mutation RecordReplanCheckpoint($goalId: ID!, $agentId: ID!, $digest: String!, $kind: ReplanKind!, $delta: ReplanDeltaInput!) {
  recordReplanCheckpoint(
    goalId: $goalId
    agentId: $agentId
    digest: $digest
    kind: $kind
    delta: $delta
  ) {
    __typename
    ... on ReplanCheckpoint {
      event {
        ...LedgerEventFields
      }
      vision {
        ...VisionFields
      }
    }
    ... on LedgerDigestMismatch {
      goalId
      agentId
      citedDigest
      requiredRead {
        query
        reason
      }
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment VisionFields on Vision {
  goalId
  agentId
  roleScope
  visionSummary
  acceptanceSummary
  replanTriggerSummary
  updatedAt
  updatedBy {
    ...ActorFields
  }
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment LedgerEventFields on LedgerEvent {
  goalId
  seq
  eventId
  eventKind
  source
  agentId
  todoId
  gateId
  relatedAgentId
  classification
  status
  summary
  evidenceRefs
  goalChange
  material
  relevance
  citedDigest
  recordedAt
  recordedBy {
    ...ActorFields
  }
  boundary {
    rawLogsRecorded
    rawTrajectoryRecorded
    credentialValuesRecorded
    absolutePathsRecorded
    redactionCount
  }
}`) as unknown as TypedDocumentString<RecordReplanCheckpointMutation, RecordReplanCheckpointMutationVariables>;
export const LedgerEventsDocument = new TypedDocumentString(`
    subscription LedgerEvents($goalId: ID!, $agentId: ID!, $after: Seq) {
  ledgerEvents(goalId: $goalId, agentId: $agentId, after: $after) {
    __typename
    ... on LedgerEvent {
      ...LedgerEventFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LedgerEventFields on LedgerEvent {
  goalId
  seq
  eventId
  eventKind
  source
  agentId
  todoId
  gateId
  relatedAgentId
  classification
  status
  summary
  evidenceRefs
  goalChange
  material
  relevance
  citedDigest
  recordedAt
  recordedBy {
    ...ActorFields
  }
  boundary {
    rawLogsRecorded
    rawTrajectoryRecorded
    credentialValuesRecorded
    absolutePathsRecorded
    redactionCount
  }
}`) as unknown as TypedDocumentString<LedgerEventsSubscription, LedgerEventsSubscriptionVariables>;
export const GoalLedgerEventsDocument = new TypedDocumentString(`
    subscription GoalLedgerEvents($goalId: ID!, $after: Seq) {
  goalLedgerEvents(goalId: $goalId, after: $after) {
    __typename
    ... on LedgerEvent {
      ...LedgerEventFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LedgerEventFields on LedgerEvent {
  goalId
  seq
  eventId
  eventKind
  source
  agentId
  todoId
  gateId
  relatedAgentId
  classification
  status
  summary
  evidenceRefs
  goalChange
  material
  relevance
  citedDigest
  recordedAt
  recordedBy {
    ...ActorFields
  }
  boundary {
    rawLogsRecorded
    rawTrajectoryRecorded
    credentialValuesRecorded
    absolutePathsRecorded
    redactionCount
  }
}`) as unknown as TypedDocumentString<GoalLedgerEventsSubscription, GoalLedgerEventsSubscriptionVariables>;
export const ReplanObligationsDocument = new TypedDocumentString(`
    query ReplanObligations($goalId: ID!, $agentId: ID!) {
  replanObligations(goalId: $goalId, agentId: $agentId) {
    __typename
    ... on ReplanObligations {
      goalId
      agentId
      owed
      hasVision
      headSeq
      obligations {
        kind
        detail
        count
        countCapped
        latestSeq
      }
      lastCheckpoint {
        seq
        recordedAt
        kind
      }
      requiredReads {
        query
        command
        reason
      }
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}`) as unknown as TypedDocumentString<ReplanObligationsQuery, ReplanObligationsQueryVariables>;
export const RegisterProviderDocument = new TypedDocumentString(`
    mutation RegisterProvider($input: RegisterProviderInput!) {
  registerProvider(input: $input) {
    providerId
    instanceId
    presenceTtlMs
    supportsPinnedWaits
    goalIds
    host
    registeredAt
  }
}
    `) as unknown as TypedDocumentString<RegisterProviderMutation, RegisterProviderMutationVariables>;
export const ReportPresenceDocument = new TypedDocumentString(`
    mutation ReportPresence($reports: [PresenceReportInput!]!) {
  reportPresence(reports: $reports) {
    __typename
    ... on PresenceAccepted {
      changed
      heartbeats
      outOfOrder
      refused {
        index
        goalId
        agentId
        reason
        field
        message
      }
    }
    ... on PresenceRefused {
      index
      goalId
      agentId
      reason
    }
  }
}
    `) as unknown as TypedDocumentString<ReportPresenceMutation, ReportPresenceMutationVariables>;
export const EndPresenceDocument = new TypedDocumentString(`
    mutation EndPresence($input: EndPresenceInput!) {
  endPresence(input: $input) {
    __typename
    ... on PresenceAccepted {
      changed
      heartbeats
      outOfOrder
    }
    ... on PresenceRefused {
      index
      goalId
      agentId
      reason
    }
  }
}
    `) as unknown as TypedDocumentString<EndPresenceMutation, EndPresenceMutationVariables>;
export const ReportObservationDocument = new TypedDocumentString(`
    mutation ReportObservation($input: ReportObservationInput!) {
  reportObservation(input: $input) {
    __typename
    ... on PresenceAccepted {
      changed
    }
    ... on PresenceRefused {
      goalId
      agentId
      reason
    }
    ... on ObservationGap {
      goalId
      agentId
      source
      gapReason: reason
    }
  }
}
    `) as unknown as TypedDocumentString<ReportObservationMutation, ReportObservationMutationVariables>;
export const RecordDeliveryNoticeDocument = new TypedDocumentString(`
    mutation RecordDeliveryNotice($input: RecordDeliveryNoticeInput!) {
  recordDeliveryNotice(input: $input) {
    __typename
    ... on DeliveryNotice {
      deliveryId
      via
      seq
      observedAt
    }
    ... on DeliveryNoticeRefused {
      reason
      goalId
      deliveryId
      liveness
    }
    ... on ScopeGap {
      goalId
      scopeGapReason: reason
    }
  }
}
    `) as unknown as TypedDocumentString<RecordDeliveryNoticeMutation, RecordDeliveryNoticeMutationVariables>;
export const PendingNoticesDocument = new TypedDocumentString(`
    query PendingNotices($goalId: ID!) {
  pendingNotices(goalId: $goalId) {
    __typename
    ... on PendingNotices {
      goalId
      notices {
        deliveryId
        agentId
        providerSessionRef
        occupantRef
      }
    }
    ... on ScopeGap {
      goalId
      scopeGapReason: reason
    }
  }
}
    `) as unknown as TypedDocumentString<PendingNoticesQuery, PendingNoticesQueryVariables>;
export const WhoamiDocument = new TypedDocumentString(`
    query Whoami {
  me {
    kind
    goalId
    agentId
    providerId
    credentialId
    goalIds
  }
}
    `) as unknown as TypedDocumentString<WhoamiQuery, WhoamiQueryVariables>;
export const GoalsDocument = new TypedDocumentString(`
    query Goals {
  goals {
    id
    title
    createdAt
  }
}
    `) as unknown as TypedDocumentString<GoalsQuery, GoalsQueryVariables>;
export const AgentsDocument = new TypedDocumentString(`
    query Agents($goalId: ID!, $includeRetired: Boolean) {
  agents(goalId: $goalId, includeRetired: $includeRetired) {
    goalId
    rows {
      ...AgentFields
    }
    scopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment AgentFields on Agent {
  goalId
  agentId
  agentModel
  hostSurface
  registeredAt
  retiredAt
}`) as unknown as TypedDocumentString<AgentsQuery, AgentsQueryVariables>;
export const CreateGoalDocument = new TypedDocumentString(`
    mutation CreateGoal($input: CreateGoalInput!) {
  createGoal(input: $input) {
    __typename
    ... on Goal {
      id
      title
      createdAt
    }
    ... on GoalAlreadyExists {
      goal {
        id
        title
        createdAt
      }
    }
  }
}
    `) as unknown as TypedDocumentString<CreateGoalMutation, CreateGoalMutationVariables>;
export const RegisterAgentDocument = new TypedDocumentString(`
    mutation RegisterAgent($input: RegisterAgentInput!) {
  registerAgent(input: $input) {
    __typename
    ... on Agent {
      ...AgentFields
    }
    ... on AgentAlreadyRegistered {
      agent {
        ...AgentFields
      }
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment AgentFields on Agent {
  goalId
  agentId
  agentModel
  hostSurface
  registeredAt
  retiredAt
}`) as unknown as TypedDocumentString<RegisterAgentMutation, RegisterAgentMutationVariables>;
export const RetireAgentDocument = new TypedDocumentString(`
    mutation RetireAgent($goalId: ID!, $agentId: ID!) {
  retireAgent(goalId: $goalId, agentId: $agentId) {
    __typename
    ... on Agent {
      ...AgentFields
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment AgentFields on Agent {
  goalId
  agentId
  agentModel
  hostSurface
  registeredAt
  retiredAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}`) as unknown as TypedDocumentString<RetireAgentMutation, RetireAgentMutationVariables>;
export const IssueCredentialDocument = new TypedDocumentString(`
    mutation IssueCredential($input: IssueCredentialInput!) {
  issueCredential(input: $input) {
    token
    credential {
      ...CredentialFields
    }
  }
}
    fragment CredentialFields on Credential {
  id
  kind
  label
  goalId
  agentId
  goalIds
  providerId
  createdAt
  revokedAt
  expiresAt
  status
  lastUsedAt
}`) as unknown as TypedDocumentString<IssueCredentialMutation, IssueCredentialMutationVariables>;
export const RevokeCredentialDocument = new TypedDocumentString(`
    mutation RevokeCredential($id: ID!) {
  revokeCredential(id: $id) {
    ...CredentialFields
  }
}
    fragment CredentialFields on Credential {
  id
  kind
  label
  goalId
  agentId
  goalIds
  providerId
  createdAt
  revokedAt
  expiresAt
  status
  lastUsedAt
}`) as unknown as TypedDocumentString<RevokeCredentialMutation, RevokeCredentialMutationVariables>;
export const CredentialsDocument = new TypedDocumentString(`
    query Credentials($goalId: ID, $kind: CallerKind) {
  credentials(goalId: $goalId, kind: $kind) {
    ...CredentialFields
  }
}
    fragment CredentialFields on Credential {
  id
  kind
  label
  goalId
  agentId
  goalIds
  providerId
  createdAt
  revokedAt
  expiresAt
  status
  lastUsedAt
}`) as unknown as TypedDocumentString<CredentialsQuery, CredentialsQueryVariables>;
export const RotateCredentialDocument = new TypedDocumentString(`
    mutation RotateCredential($id: ID!) {
  rotateCredential(id: $id) {
    token
    credential {
      ...CredentialFields
    }
  }
}
    fragment CredentialFields on Credential {
  id
  kind
  label
  goalId
  agentId
  goalIds
  providerId
  createdAt
  revokedAt
  expiresAt
  status
  lastUsedAt
}`) as unknown as TypedDocumentString<RotateCredentialMutation, RotateCredentialMutationVariables>;
export const DelegateGoalDocument = new TypedDocumentString(`
    mutation DelegateGoal($input: DelegateGoalInput!) {
  delegateGoal(input: $input) {
    __typename
    ... on Delegation {
      goalId
      agentGoalId
      agentId
      createdAt
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}`) as unknown as TypedDocumentString<DelegateGoalMutation, DelegateGoalMutationVariables>;
export const DiscoverDocument = new TypedDocumentString(`
    query Discover($goalId: ID!) {
  discover(goalId: $goalId) {
    __typename
    ... on Discovery {
      goalId
      self
      limitations
      agents {
        agentId
        isSelf
        connected
        isPrimary
        sources
        freshness
        staleReason
        liveness
        lastSeenAt
        lastMessageAt
      }
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}`) as unknown as TypedDocumentString<DiscoverQuery, DiscoverQueryVariables>;
export const RosterDocument = new TypedDocumentString(`
    query Roster($goalId: ID!) {
  roster(goalId: $goalId) {
    __typename
    ... on Roster {
      ...RosterFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment RosterFields on Roster {
  goalId
  self
  selfKind
  primaryPeer
  peers {
    agentId
    status
    source
    attachedAt
    lastActiveAt
    isPrimary
  }
}`) as unknown as TypedDocumentString<RosterQuery, RosterQueryVariables>;
export const AddPeerDocument = new TypedDocumentString(`
    mutation AddPeer($goalId: ID!, $agentId: ID!) {
  addPeer(goalId: $goalId, agentId: $agentId) {
    __typename
    ... on Roster {
      ...RosterFields
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment RosterFields on Roster {
  goalId
  self
  selfKind
  primaryPeer
  peers {
    agentId
    status
    source
    attachedAt
    lastActiveAt
    isPrimary
  }
}`) as unknown as TypedDocumentString<AddPeerMutation, AddPeerMutationVariables>;
export const RemovePeerDocument = new TypedDocumentString(`
    mutation RemovePeer($goalId: ID!, $agentId: ID!) {
  removePeer(goalId: $goalId, agentId: $agentId) {
    __typename
    ... on Roster {
      ...RosterFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment RosterFields on Roster {
  goalId
  self
  selfKind
  primaryPeer
  peers {
    agentId
    status
    source
    attachedAt
    lastActiveAt
    isPrimary
  }
}`) as unknown as TypedDocumentString<RemovePeerMutation, RemovePeerMutationVariables>;
export const SetPrimaryPeerDocument = new TypedDocumentString(`
    mutation SetPrimaryPeer($goalId: ID!, $agentId: ID) {
  setPrimaryPeer(goalId: $goalId, agentId: $agentId) {
    __typename
    ... on Roster {
      ...RosterFields
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment RosterFields on Roster {
  goalId
  self
  selfKind
  primaryPeer
  peers {
    agentId
    status
    source
    attachedAt
    lastActiveAt
    isPrimary
  }
}`) as unknown as TypedDocumentString<SetPrimaryPeerMutation, SetPrimaryPeerMutationVariables>;
export const StartWaitDocument = new TypedDocumentString(`
    mutation StartWait($input: WaitInput!) {
  startWait(input: $input) {
    ...WaitResultFields
  }
}
    fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment ScopeGapResultFields on ScopeGap {
  goalId
  scopeGapReason: reason
}
fragment WaitPinFields on WaitPin {
  goalId
  agentId
  todoId
  provider
  providerSessionRef
  occupantRef
}
fragment WaitFields on Wait {
  id
  goalId
  status
  reason
  accept
  timeoutMs
  deadline
  createdAt
  resolvedAt
  baselineSeq
  limitations
  pin {
    ...WaitPinFields
  }
  targets {
    agentId
    pinned
    baselineSeq
    limitation
    pin {
      ...WaitPinFields
    }
  }
  resolution {
    agentId
    liveness
    seq
  }
}
fragment WaitResultFields on WaitResult {
  __typename
  ... on Wait {
    ...WaitFields
  }
  ... on UnknownWait {
    waitId
  }
  ... on UnknownAgent {
    ...UnknownAgentFields
  }
  ... on ScopeGap {
    ...ScopeGapResultFields
  }
  ... on PendingWaitsLimited {
    limit
    pending
  }
}`) as unknown as TypedDocumentString<StartWaitMutation, StartWaitMutationVariables>;
export const WaitDocument = new TypedDocumentString(`
    query Wait($id: ID!) {
  wait(id: $id) {
    ...WaitResultFields
  }
}
    fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment ScopeGapResultFields on ScopeGap {
  goalId
  scopeGapReason: reason
}
fragment WaitPinFields on WaitPin {
  goalId
  agentId
  todoId
  provider
  providerSessionRef
  occupantRef
}
fragment WaitFields on Wait {
  id
  goalId
  status
  reason
  accept
  timeoutMs
  deadline
  createdAt
  resolvedAt
  baselineSeq
  limitations
  pin {
    ...WaitPinFields
  }
  targets {
    agentId
    pinned
    baselineSeq
    limitation
    pin {
      ...WaitPinFields
    }
  }
  resolution {
    agentId
    liveness
    seq
  }
}
fragment WaitResultFields on WaitResult {
  __typename
  ... on Wait {
    ...WaitFields
  }
  ... on UnknownWait {
    waitId
  }
  ... on UnknownAgent {
    ...UnknownAgentFields
  }
  ... on ScopeGap {
    ...ScopeGapResultFields
  }
  ... on PendingWaitsLimited {
    limit
    pending
  }
}`) as unknown as TypedDocumentString<WaitQuery, WaitQueryVariables>;
export const FollowWaitDocument = new TypedDocumentString(`
    subscription FollowWait($waitId: ID!) {
  waitForAgent(waitId: $waitId) {
    ...WaitResultFields
  }
}
    fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment ScopeGapResultFields on ScopeGap {
  goalId
  scopeGapReason: reason
}
fragment WaitPinFields on WaitPin {
  goalId
  agentId
  todoId
  provider
  providerSessionRef
  occupantRef
}
fragment WaitFields on Wait {
  id
  goalId
  status
  reason
  accept
  timeoutMs
  deadline
  createdAt
  resolvedAt
  baselineSeq
  limitations
  pin {
    ...WaitPinFields
  }
  targets {
    agentId
    pinned
    baselineSeq
    limitation
    pin {
      ...WaitPinFields
    }
  }
  resolution {
    agentId
    liveness
    seq
  }
}
fragment WaitResultFields on WaitResult {
  __typename
  ... on Wait {
    ...WaitFields
  }
  ... on UnknownWait {
    waitId
  }
  ... on UnknownAgent {
    ...UnknownAgentFields
  }
  ... on ScopeGap {
    ...ScopeGapResultFields
  }
  ... on PendingWaitsLimited {
    limit
    pending
  }
}`) as unknown as TypedDocumentString<FollowWaitSubscription, FollowWaitSubscriptionVariables>;
export const WaitsDocument = new TypedDocumentString(`
    query Waits($goalId: ID!, $agentId: ID!, $status: WaitStatus, $limit: Int) {
  waits(goalId: $goalId, agentId: $agentId, status: $status, limit: $limit) {
    goalId
    agentId
    omittedRowCount
    scopeGap {
      ...ScopeGapFields
    }
    rows {
      ...WaitFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment WaitPinFields on WaitPin {
  goalId
  agentId
  todoId
  provider
  providerSessionRef
  occupantRef
}
fragment WaitFields on Wait {
  id
  goalId
  status
  reason
  accept
  timeoutMs
  deadline
  createdAt
  resolvedAt
  baselineSeq
  limitations
  pin {
    ...WaitPinFields
  }
  targets {
    agentId
    pinned
    baselineSeq
    limitation
    pin {
      ...WaitPinFields
    }
  }
  resolution {
    agentId
    liveness
    seq
  }
}`) as unknown as TypedDocumentString<WaitsQuery, WaitsQueryVariables>;
export const TodosDocument = new TypedDocumentString(`
    query Todos($goalId: ID!, $limit: Int, $statuses: [TodoStatus!]) {
  todos(goalId: $goalId, limit: $limit, statuses: $statuses) {
    goalId
    seq
    ledgerSeq
    omittedRowCount
    rows {
      ...TodoFields
    }
    scopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}`) as unknown as TypedDocumentString<TodosQuery, TodosQueryVariables>;
export const TodoTransitionsDocument = new TypedDocumentString(`
    query TodoTransitions($goalId: ID!, $todoId: ID!) {
  todoTransitions(goalId: $goalId, todoId: $todoId) {
    goalId
    rows {
      todoId
      seq
      kind
      fromStatus
      toStatus
      detail
      at
      actor {
        ...ActorFields
      }
    }
    scopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}`) as unknown as TypedDocumentString<TodoTransitionsQuery, TodoTransitionsQueryVariables>;
export const CreateTodoDocument = new TypedDocumentString(`
    mutation CreateTodo($input: CreateTodoInput!) {
  createTodo(input: $input) {
    __typename
    ... on Todo {
      ...TodoFields
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}`) as unknown as TypedDocumentString<CreateTodoMutation, CreateTodoMutationVariables>;
export const ClaimTodoDocument = new TypedDocumentString(`
    mutation ClaimTodo($input: TodoActionInput!) {
  claimTodo(input: $input) {
    __typename
    ... on ClaimedTodo {
      todo {
        ...TodoFields
      }
      warnings {
        ...ClaimWarningFields
      }
    }
    ... on ClaimedByOther {
      ...ClaimedByOtherFields
    }
    ... on IllegalTransition {
      ...IllegalTransitionFields
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on UnknownTodo {
      ...UnknownTodoFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment ClaimedByOtherFields on ClaimedByOther {
  goalId
  todoId
  owner
  claimedAt
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}
fragment ClaimWarningFields on ClaimWarning {
  kind
  todoId
  owner
  repository
  writeScope
  otherWriteScope
}`) as unknown as TypedDocumentString<ClaimTodoMutation, ClaimTodoMutationVariables>;
export const ReleaseClaimDocument = new TypedDocumentString(`
    mutation ReleaseClaim($input: TodoActionInput!) {
  releaseClaim(input: $input) {
    ...TodoResultFields
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment ClaimedByOtherFields on ClaimedByOther {
  goalId
  todoId
  owner
  claimedAt
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}
fragment TodoResultFields on TodoResult {
  __typename
  ... on Todo {
    ...TodoFields
  }
  ... on ClaimedByOther {
    ...ClaimedByOtherFields
  }
  ... on IllegalTransition {
    ...IllegalTransitionFields
  }
  ... on UnknownAgent {
    ...UnknownAgentFields
  }
  ... on UnknownTodo {
    ...UnknownTodoFields
  }
  ... on ScopeGap {
    ...ScopeGapFields
  }
}`) as unknown as TypedDocumentString<ReleaseClaimMutation, ReleaseClaimMutationVariables>;
export const ResumeTodoDocument = new TypedDocumentString(`
    mutation ResumeTodo($input: TodoActionInput!) {
  resumeTodo(input: $input) {
    ...TodoResultFields
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment ClaimedByOtherFields on ClaimedByOther {
  goalId
  todoId
  owner
  claimedAt
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}
fragment TodoResultFields on TodoResult {
  __typename
  ... on Todo {
    ...TodoFields
  }
  ... on ClaimedByOther {
    ...ClaimedByOtherFields
  }
  ... on IllegalTransition {
    ...IllegalTransitionFields
  }
  ... on UnknownAgent {
    ...UnknownAgentFields
  }
  ... on UnknownTodo {
    ...UnknownTodoFields
  }
  ... on ScopeGap {
    ...ScopeGapFields
  }
}`) as unknown as TypedDocumentString<ResumeTodoMutation, ResumeTodoMutationVariables>;
export const DeferTodoDocument = new TypedDocumentString(`
    mutation DeferTodo($input: DeferTodoInput!) {
  deferTodo(input: $input) {
    ...TodoResultFields
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment ClaimedByOtherFields on ClaimedByOther {
  goalId
  todoId
  owner
  claimedAt
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}
fragment TodoResultFields on TodoResult {
  __typename
  ... on Todo {
    ...TodoFields
  }
  ... on ClaimedByOther {
    ...ClaimedByOtherFields
  }
  ... on IllegalTransition {
    ...IllegalTransitionFields
  }
  ... on UnknownAgent {
    ...UnknownAgentFields
  }
  ... on UnknownTodo {
    ...UnknownTodoFields
  }
  ... on ScopeGap {
    ...ScopeGapFields
  }
}`) as unknown as TypedDocumentString<DeferTodoMutation, DeferTodoMutationVariables>;
export const CloseNoFollowUpDocument = new TypedDocumentString(`
    mutation CloseNoFollowUp($input: CloseNoFollowUpInput!) {
  closeNoFollowUp(input: $input) {
    ...TodoResultFields
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment ClaimedByOtherFields on ClaimedByOther {
  goalId
  todoId
  owner
  claimedAt
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}
fragment TodoResultFields on TodoResult {
  __typename
  ... on Todo {
    ...TodoFields
  }
  ... on ClaimedByOther {
    ...ClaimedByOtherFields
  }
  ... on IllegalTransition {
    ...IllegalTransitionFields
  }
  ... on UnknownAgent {
    ...UnknownAgentFields
  }
  ... on UnknownTodo {
    ...UnknownTodoFields
  }
  ... on ScopeGap {
    ...ScopeGapFields
  }
}`) as unknown as TypedDocumentString<CloseNoFollowUpMutation, CloseNoFollowUpMutationVariables>;
export const CompleteTodoDocument = new TypedDocumentString(`
    mutation CompleteTodo($input: CompleteTodoInput!) {
  completeTodo(input: $input) {
    __typename
    ... on CompletedTodo {
      todo {
        ...TodoFields
      }
      successor {
        ...TodoFields
      }
    }
    ... on ClaimedByOther {
      ...ClaimedByOtherFields
    }
    ... on IllegalTransition {
      ...IllegalTransitionFields
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on UnknownTodo {
      ...UnknownTodoFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment ClaimedByOtherFields on ClaimedByOther {
  goalId
  todoId
  owner
  claimedAt
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}`) as unknown as TypedDocumentString<CompleteTodoMutation, CompleteTodoMutationVariables>;
export const SupersedeTodoDocument = new TypedDocumentString(`
    mutation SupersedeTodo($input: SupersedeTodoInput!) {
  supersedeTodo(input: $input) {
    __typename
    ... on SupersededTodo {
      todo {
        ...TodoFields
      }
      replacement {
        ...TodoFields
      }
    }
    ... on ClaimedByOther {
      ...ClaimedByOtherFields
    }
    ... on IllegalTransition {
      ...IllegalTransitionFields
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on UnknownTodo {
      ...UnknownTodoFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment ClaimedByOtherFields on ClaimedByOther {
  goalId
  todoId
  owner
  claimedAt
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}`) as unknown as TypedDocumentString<SupersedeTodoMutation, SupersedeTodoMutationVariables>;
export const FrontierDocument = new TypedDocumentString(`
    query Frontier($goalId: ID!, $agentId: ID, $runnable: Boolean, $limit: Int) {
  frontier(goalId: $goalId, agentId: $agentId, runnable: $runnable, limit: $limit) {
    __typename
    ... on Frontier {
      goalId
      agentId
      seq
      rowCount
      runnableCount
      omittedRowCount
      capabilities
      replanNotices
      workspace {
        repository
        worktree
        revision
      }
      rows {
        runnable
        todo {
          id
          title
          taskClass
          status
          priority
          claimedBy
          dependsOn
          resumeWhen
          requiredDecisionScopes
          requiredCapability
          lease {
            ...LeaseFields
          }
        }
        guards {
          kind
          detail
          todoId
          todoStatus
          gateId
          scope
          agentId
          capability
          condition
          repository
          writeScope
          workspaceReason
        }
      }
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}`) as unknown as TypedDocumentString<FrontierQuery, FrontierQueryVariables>;
export const GatesDocument = new TypedDocumentString(`
    query Gates($goalId: ID!) {
  gates(goalId: $goalId) {
    goalId
    rows {
      ...GateFields
    }
    scopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment GateFields on Gate {
  goalId
  id
  kind
  granularity
  scopeKey
  scope
  reason
  state
  decision
  decisionNote
  expiresAt
  openedAt
  openedBy {
    ...ActorFields
  }
  resolvedAt
  resolvedBy {
    ...ActorFields
  }
}`) as unknown as TypedDocumentString<GatesQuery, GatesQueryVariables>;
export const OpenGateDocument = new TypedDocumentString(`
    mutation OpenGate($input: OpenGateInput!) {
  openGate(input: $input) {
    __typename
    ... on Gate {
      ...GateFields
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapResultFields
    }
  }
}
    fragment ActorFields on Actor {
  kind
  agentId
}
fragment GateFields on Gate {
  goalId
  id
  kind
  granularity
  scopeKey
  scope
  reason
  state
  decision
  decisionNote
  expiresAt
  openedAt
  openedBy {
    ...ActorFields
  }
  resolvedAt
  resolvedBy {
    ...ActorFields
  }
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment ScopeGapResultFields on ScopeGap {
  goalId
  scopeGapReason: reason
}`) as unknown as TypedDocumentString<OpenGateMutation, OpenGateMutationVariables>;
export const ResolveGateDocument = new TypedDocumentString(`
    mutation ResolveGate($input: ResolveGateInput!) {
  resolveGate(input: $input) {
    __typename
    ... on Gate {
      ...GateFields
    }
    ... on GateNotOpen {
      gate {
        ...GateFields
      }
    }
    ... on UnknownGate {
      goalId
      gateId
    }
    ... on ScopeGap {
      ...ScopeGapResultFields
    }
  }
}
    fragment ActorFields on Actor {
  kind
  agentId
}
fragment GateFields on Gate {
  goalId
  id
  kind
  granularity
  scopeKey
  scope
  reason
  state
  decision
  decisionNote
  expiresAt
  openedAt
  openedBy {
    ...ActorFields
  }
  resolvedAt
  resolvedBy {
    ...ActorFields
  }
}
fragment ScopeGapResultFields on ScopeGap {
  goalId
  scopeGapReason: reason
}`) as unknown as TypedDocumentString<ResolveGateMutation, ResolveGateMutationVariables>;
export const AcquireLeaseDocument = new TypedDocumentString(`
    mutation AcquireLease($input: AcquireLeaseInput!) {
  acquireLease(input: $input) {
    __typename
    ... on Lease {
      ...LeaseFields
    }
    ... on LeaseHeld {
      goalId
      todoId
      lease {
        ...LeaseFields
      }
    }
    ... on ClaimedByOther {
      ...ClaimedByOtherFields
    }
    ... on IllegalTransition {
      ...IllegalTransitionFields
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on UnknownTodo {
      ...UnknownTodoFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment ClaimedByOtherFields on ClaimedByOther {
  goalId
  todoId
  owner
  claimedAt
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}`) as unknown as TypedDocumentString<AcquireLeaseMutation, AcquireLeaseMutationVariables>;
export const RenewLeaseDocument = new TypedDocumentString(`
    mutation RenewLease($input: RenewLeaseInput!) {
  renewLease(input: $input) {
    ...LeaseResultFields
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}
fragment LeaseResultFields on LeaseResult {
  __typename
  ... on Lease {
    ...LeaseFields
  }
  ... on StaleFence {
    goalId
    todoId
    fence
    lease {
      ...LeaseFields
    }
  }
  ... on IllegalTransition {
    ...IllegalTransitionFields
  }
  ... on UnknownAgent {
    ...UnknownAgentFields
  }
  ... on UnknownTodo {
    ...UnknownTodoFields
  }
  ... on ScopeGap {
    ...ScopeGapFields
  }
}`) as unknown as TypedDocumentString<RenewLeaseMutation, RenewLeaseMutationVariables>;
export const ReleaseLeaseDocument = new TypedDocumentString(`
    mutation ReleaseLease($input: ReleaseLeaseInput!) {
  releaseLease(input: $input) {
    ...LeaseResultFields
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}
fragment LeaseResultFields on LeaseResult {
  __typename
  ... on Lease {
    ...LeaseFields
  }
  ... on StaleFence {
    goalId
    todoId
    fence
    lease {
      ...LeaseFields
    }
  }
  ... on IllegalTransition {
    ...IllegalTransitionFields
  }
  ... on UnknownAgent {
    ...UnknownAgentFields
  }
  ... on UnknownTodo {
    ...UnknownTodoFields
  }
  ... on ScopeGap {
    ...ScopeGapFields
  }
}`) as unknown as TypedDocumentString<ReleaseLeaseMutation, ReleaseLeaseMutationVariables>;
export const VisionsDocument = new TypedDocumentString(`
    query Visions($goalId: ID!) {
  visions(goalId: $goalId) {
    goalId
    rows {
      ...VisionFields
    }
    scopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment VisionFields on Vision {
  goalId
  agentId
  roleScope
  visionSummary
  acceptanceSummary
  replanTriggerSummary
  updatedAt
  updatedBy {
    ...ActorFields
  }
}`) as unknown as TypedDocumentString<VisionsQuery, VisionsQueryVariables>;
export const SetVisionDocument = new TypedDocumentString(`
    mutation SetVision($input: SetVisionInput!) {
  setVision(input: $input) {
    __typename
    ... on Vision {
      ...VisionFields
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment VisionFields on Vision {
  goalId
  agentId
  roleScope
  visionSummary
  acceptanceSummary
  replanTriggerSummary
  updatedAt
  updatedBy {
    ...ActorFields
  }
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}`) as unknown as TypedDocumentString<SetVisionMutation, SetVisionMutationVariables>;
export const DeclareWorkspaceDocument = new TypedDocumentString(`
    mutation DeclareWorkspace($input: DeclareWorkspaceInput!) {
  declareWorkspace(input: $input) {
    __typename
    ... on AgentWorkspace {
      goalId
      agentId
      workspace {
        repository
        worktree
        revision
        declaredAt
      }
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}`) as unknown as TypedDocumentString<DeclareWorkspaceMutation, DeclareWorkspaceMutationVariables>;
export const HandoffTodoDocument = new TypedDocumentString(`
    mutation HandoffTodo($input: HandoffTodoInput!) {
  handoffTodo(input: $input) {
    __typename
    ... on Handoff {
      ...HandoffPacketFields
      todo {
        ...TodoFields
      }
    }
    ... on HandoffRefused {
      refusal
      goalId
      todoId
      receiver
      capability
      delivery {
        reason
        target
      }
    }
    ... on LeaseHeld {
      goalId
      todoId
      lease {
        ...LeaseFields
      }
    }
    ... on ClaimedByOther {
      ...ClaimedByOtherFields
    }
    ... on IllegalTransition {
      ...IllegalTransitionFields
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on UnknownTodo {
      ...UnknownTodoFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment ClaimedByOtherFields on ClaimedByOther {
  goalId
  todoId
  owner
  claimedAt
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}
fragment HandoffPacketFields on HandoffPacket {
  id
  goalId
  todoId
  sender
  receiver
  nextAction
  validation
  stopCondition
  omitted
  leaseTransferred
  authorityBoundary
  deliveryId
  ledgerSeq
  createdAt
  senderWorkspace {
    repository
    worktree
    revision
  }
  evidence {
    ref
    freshness
    recordedAt
  }
  todoAtHandoff {
    title
    status
    requiredCapability
    requiredDecisionScopes
    taskRepository
    writeScope
    gates {
      gateId
      scope
      state
      applies
    }
  }
}`) as unknown as TypedDocumentString<HandoffTodoMutation, HandoffTodoMutationVariables>;
export const HandoffDocument = new TypedDocumentString(`
    query Handoff($goalId: ID!, $handoffId: ID!, $agentId: ID) {
  handoff(goalId: $goalId, handoffId: $handoffId, agentId: $agentId) {
    __typename
    ... on HandoffRead {
      ...HandoffPacketFields
      readFor
      status
      live
      runnable
      claimedBy
      capabilities
      guards {
        kind
        detail
      }
      gates {
        gateId
        scope
        state
        applies
      }
    }
    ... on UnknownHandoff {
      goalId
      handoffId
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment HandoffPacketFields on HandoffPacket {
  id
  goalId
  todoId
  sender
  receiver
  nextAction
  validation
  stopCondition
  omitted
  leaseTransferred
  authorityBoundary
  deliveryId
  ledgerSeq
  createdAt
  senderWorkspace {
    repository
    worktree
    revision
  }
  evidence {
    ref
    freshness
    recordedAt
  }
  todoAtHandoff {
    title
    status
    requiredCapability
    requiredDecisionScopes
    taskRepository
    writeScope
    gates {
      gateId
      scope
      state
      applies
    }
  }
}`) as unknown as TypedDocumentString<HandoffQuery, HandoffQueryVariables>;
export const GoalClosureDocument = new TypedDocumentString(`
    query GoalClosure($goalId: ID!) {
  goalClosure(goalId: $goalId) {
    __typename
    ... on GoalClosure {
      goalId
      closable
      acceptanceEvidenceCount
      reasons {
        ...GoalClosureReasonFields
      }
      closure {
        reason
        acceptanceRefs
        closedAt
        ledgerSeq
      }
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment GoalClosureReasonFields on GoalClosureReason {
  kind
  detail
  todoId
  taskClass
  todoStatus
  gateId
  agentId
  obligations
}`) as unknown as TypedDocumentString<GoalClosureQuery, GoalClosureQueryVariables>;
export const CloseGoalDocument = new TypedDocumentString(`
    mutation CloseGoal($input: CloseGoalInput!) {
  closeGoal(input: $input) {
    __typename
    ... on GoalClosed {
      closure {
        goalId
        reason
        acceptanceRefs
        closedAt
        ledgerSeq
      }
    }
    ... on GoalClosureRefused {
      goalId
      reasons {
        ...GoalClosureReasonFields
      }
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment GoalClosureReasonFields on GoalClosureReason {
  kind
  detail
  todoId
  taskClass
  todoStatus
  gateId
  agentId
  obligations
}`) as unknown as TypedDocumentString<CloseGoalMutation, CloseGoalMutationVariables>;
export const SetDependenciesDocument = new TypedDocumentString(`
    mutation SetDependencies($input: SetDependenciesInput!) {
  setDependencies(input: $input) {
    ...TodoResultFields
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment LeaseFields on Lease {
  goalId
  todoId
  holder
  fence
  state
  expiresAt
}
fragment TodoFields on Todo {
  goalId
  id
  title
  taskClass
  status
  priority
  dependsOn
  resumeWhen
  requiredDecisionScopes
  requiredCapability
  taskRepository
  writeScope
  continuationPolicy
  claim {
    agentId
    claimedAt
  }
  lease {
    ...LeaseFields
  }
  evidenceRefs
  successorOf
  supersededBy
  supersedeReason
  deferReason
  noFollowUpReason
  createdAt
  createdBy {
    ...ActorFields
  }
  updatedAt
  updatedBy {
    ...ActorFields
  }
  closedAt
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}
fragment UnknownTodoFields on UnknownTodo {
  goalId
  todoId
}
fragment ClaimedByOtherFields on ClaimedByOther {
  goalId
  todoId
  owner
  claimedAt
}
fragment IllegalTransitionFields on IllegalTransition {
  goalId
  todoId
  from
  attempted
}
fragment TodoResultFields on TodoResult {
  __typename
  ... on Todo {
    ...TodoFields
  }
  ... on ClaimedByOther {
    ...ClaimedByOtherFields
  }
  ... on IllegalTransition {
    ...IllegalTransitionFields
  }
  ... on UnknownAgent {
    ...UnknownAgentFields
  }
  ... on UnknownTodo {
    ...UnknownTodoFields
  }
  ... on ScopeGap {
    ...ScopeGapFields
  }
}`) as unknown as TypedDocumentString<SetDependenciesMutation, SetDependenciesMutationVariables>;
export const SetCapabilitiesDocument = new TypedDocumentString(`
    mutation SetCapabilities($input: SetCapabilitiesInput!) {
  setCapabilities(input: $input) {
    __typename
    ... on AgentCapabilities {
      goalId
      agentId
      capabilities
      updatedAt
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}`) as unknown as TypedDocumentString<SetCapabilitiesMutation, SetCapabilitiesMutationVariables>;
export const RecordExternalEventDocument = new TypedDocumentString(`
    mutation RecordExternalEvent($input: RecordExternalEventInput!) {
  recordExternalEvent(input: $input) {
    __typename
    ... on ExternalEvent {
      replayed
      waitingTodoIds
      fact {
        id
        goalId
        kind
        repository
        ref
        observedAt
        recordedAt
        recordedBy {
          ...ActorFields
        }
      }
    }
    ... on UnknownAgent {
      ...UnknownAgentFields
    }
    ... on ScopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}
fragment ActorFields on Actor {
  kind
  agentId
}
fragment UnknownAgentFields on UnknownAgent {
  goalId
  agentId
}`) as unknown as TypedDocumentString<RecordExternalEventMutation, RecordExternalEventMutationVariables>;
export const TodoTitlesDocument = new TypedDocumentString(`
    query TodoTitles($goalId: ID!, $limit: Int) {
  todos(goalId: $goalId, limit: $limit) {
    goalId
    ledgerSeq
    omittedRowCount
    rows {
      id
      title
      status
    }
    scopeGap {
      ...ScopeGapFields
    }
  }
}
    fragment ScopeGapFields on ScopeGap {
  goalId
  reason
}`) as unknown as TypedDocumentString<TodoTitlesQuery, TodoTitlesQueryVariables>;