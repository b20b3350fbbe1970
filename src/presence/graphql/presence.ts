/**
 * Presence as read: the Presence type with its liveness, basis and coverage gap. The directory,
 * deliveries and waits show it; providers report it (reports.ts).
 */
import { builder } from '../../graphql/builder.ts';
import { describeValues } from '../../graphql/values.ts';
import { coverageGaps, type Presence } from '../read.ts';
import { livenessValues, presenceBases } from '../tables.ts';

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
  description: 'How the provider knows.',
  values: describeValues(presenceBases, {
    PROVIDER_DETECTION: 'The provider classified the terminal itself.',
    LIFECYCLE_HOOK: 'The agent runtime reported through a lifecycle hook.',
    SELF_REPORT: 'The agent said so itself.',
  }),
});

const CoverageGapEnum = builder.enumType('CoverageGap', {
  description: 'Why presence reads UNKNOWN.',
  values: describeValues(coverageGaps, {
    PRESENCE_TTL_EXPIRED: "No report within the provider's declared presence TTL.",
    PROVIDER_RESTARTED:
      'Reported by an earlier instance of a provider that has since re-registered.',
    PROVIDER_CANNOT_CLASSIFY: 'The provider itself reported UNKNOWN.',
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
    occupantRef: t.exposeString('occupantRef', {
      description: "The provider's identity of the occupant at that location.",
    }),
    liveness: t.expose('liveness', {
      type: LivenessEnum,
      description: 'Liveness as a reader should take it: UNKNOWN when coverageGap is set.',
    }),
    reportedLiveness: t.expose('reportedLiveness', {
      type: LivenessEnum,
      description: 'What the provider last reported, before TTL and restart checks.',
    }),
    observedAt: t.expose('observedAt', {
      type: 'DateTime',
      description: 'When the provider last saw it.',
    }),
    basis: t.expose('basis', {
      type: PresenceBasisEnum,
      description: 'How it knows.',
    }),
    stateChangeSeq: t.expose('stateChangeSeq', {
      type: 'Seq',
      description:
        'Moves forward only when liveness or occupant changes; heartbeats leave it alone.',
    }),
    stale: t.exposeBoolean('stale', {
      description: 'Reported by an earlier instance of a provider that restarted.',
    }),
    coverageGap: t.expose('coverageGap', {
      type: CoverageGapEnum,
      nullable: true,
      description: 'Why liveness reads UNKNOWN; null when the report is current.',
    }),
    endedAt: t.expose('endedAt', {
      type: 'DateTime',
      nullable: true,
      description:
        'Set when the provider reported the occupant gone (not running, as opposed to not seen).',
    }),
  }),
});
