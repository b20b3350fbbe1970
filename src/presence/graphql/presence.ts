/**
 * Presence as read: the Presence type with its liveness, basis and coverage gap. The directory,
 * deliveries and waits show it; providers report it (reports.ts).
 */
import { builder } from '../../graphql/builder.ts';
import { describeValues } from '../../graphql/values.ts';
import { coverageGaps, type Presence } from '../read.ts';
import { blockedKinds, livenessValues, presenceBases } from '../tables.ts';

export const LivenessEnum = builder.enumType('Liveness', {
  description:
    'Whether an agent is runnable now, as a provider sees it. Never an answer to "is its work done".',
  values: describeValues(livenessValues, {
    WORKING: 'Observed executing. Not progress, not evidence of an outcome.',
    BLOCKED: 'At a question or approval gate. Not permission to answer the gate.',
    IDLE: 'Ready for input. Not a delivered request, not an available lease.',
    DONE: 'Settled and ready for input. Not task completion, not a closed todo.',
    UNREACHABLE: 'Known to the provider but not reachable now. Not an empty lane.',
    UNKNOWN: 'Cannot be classified (see coverageGap). Not completion, not absence of progress.',
  }),
});

export const PresenceBasisEnum = builder.enumType('PresenceBasis', {
  description:
    "Which source decided the liveness: one source is the authority for a target at a time (lifecycle hooks while they report, else the program's own status signal, else screen patterns). Says how the provider knows, not how sure it is.",
  values: describeValues(presenceBases, {
    PROVIDER_DETECTION:
      'The provider classified what the terminal shows (screen patterns). Not a statement by the agent.',
    LIFECYCLE_HOOK: 'The agent runtime reported through a lifecycle hook.',
    PROGRAM_STATUS:
      'The program announced its own state in its output (the OSC 7501 Program Status Protocol). Not a lifecycle hook and not a screen pattern.',
    SELF_REPORT:
      'The agent said so through a channel of its own that the provider relays (neither a lifecycle hook nor OSC 7501).',
  }),
});

export const BlockedKindEnum = builder.enumType('BlockedKind', {
  description:
    'What a BLOCKED agent waits for, as its status source said. Never permission to answer it.',
  values: describeValues(blockedKinds, {
    PERMISSION: 'Approval to run a tool or command.',
    QUESTION: 'An answer to a question it asked.',
    AUTH: 'A login or credential only a person can give.',
  }),
});

export const CoverageGapEnum = builder.enumType('CoverageGap', {
  description:
    'Why presence reads UNKNOWN. Says that nobody can currently tell, never that the agent stopped. Every gap but PROVIDER_CANNOT_CLASSIFY is a lapse: recorded once, as its own change on every presence stream, when it happens; a later report of the location clears it with another change.',
  values: describeValues(coverageGaps, {
    PRESENCE_TTL_EXPIRED:
      "No report within the provider's declared presence TTL (counted from when the gateway received the last one): the provider stopped reporting it, or is gone.",
    PROVIDER_RESTARTED:
      'Reported by an earlier instance of a provider that has since re-registered with a new instanceId.',
    PROVIDER_REVOKED: 'No unrevoked credential of the provider covers the goal any more.',
    PROVIDER_CANNOT_CLASSIFY: 'The provider itself reported UNKNOWN. Not a lapse.',
  }),
});

export const PresenceRef = builder.objectRef<Presence>('Presence').implement({
  description:
    'Advisory: what a provider last saw of an agent at one location. It annotates; it never creates an agent, a claim, a lease or a priority.',
  fields: (t) => ({
    provider: t.exposeID('provider', { description: 'The provider that reported it.' }),
    providerSessionRef: t.exposeString('providerSessionRef', {
      description:
        'An opaque location inside one provider session. Never an identity; never compare across providers.',
    }),
    host: t.exposeString('host', {
      nullable: true,
      description:
        'The machine the provider ran on when it reported this, as the provider declared it (registerProvider); null when it declared none. Part of the location, never of the identity: the same agent run on another host is a new occupant.',
    }),
    occupantRef: t.exposeString('occupantRef', {
      description: "The provider's identity of the occupant at that location.",
    }),
    liveness: t.expose('liveness', {
      type: LivenessEnum,
      description: 'Liveness as a reader should take it: UNKNOWN when coverageGap is set.',
    }),
    reportedLiveness: t.expose('reportedLiveness', {
      type: LivenessEnum,
      description: 'What the provider last reported, whatever lapsed since.',
    }),
    observedAt: t.expose('observedAt', {
      type: 'DateTime',
      description: 'When the provider last saw it.',
    }),
    basis: t.expose('basis', {
      type: PresenceBasisEnum,
      description: 'Which source decided, as of the last report.',
    }),
    explain: t.exposeString('explain', {
      nullable: true,
      description:
        'Which source decided and why, in the provider\'s words as of the last report (e.g. "OSC 7501 blocked(permission)", "screen pattern /Do you want to proceed/"). Plain text for people; never parse it, never evidence.',
    }),
    blockedKind: t.expose('blockedKind', {
      type: BlockedKindEnum,
      nullable: true,
      description:
        'What the agent waits for when its reported liveness is BLOCKED; null otherwise or when the source did not say.',
    }),
    stateChangeSeq: t.expose('stateChangeSeq', {
      type: 'Seq',
      description:
        'The seq of the last change of this presence (liveness, blocked kind, occupant, end or lapse); heartbeats leave it alone.',
    }),
    stale: t.exposeBoolean('stale', {
      description:
        'Reported by an earlier instance of a provider that restarted (coverageGap PROVIDER_RESTARTED).',
    }),
    coverageGap: t.expose('coverageGap', {
      type: CoverageGapEnum,
      nullable: true,
      description:
        'Why liveness reads UNKNOWN; null while the presence is covered. Read from what is stored, never from the clock: it says what the last change on presenceChanged said.',
    }),
    endedAt: t.expose('endedAt', {
      type: 'DateTime',
      nullable: true,
      description:
        'Set when the provider reported the occupant gone (not running, as opposed to not seen).',
    }),
  }),
});
