/** Providers: the Provider type and registerProvider, which records the provider contract. */
import { builder } from '../../graphql/builder.ts';
import { registerProvider } from '../providers.ts';
import type { Provider } from '../tables.ts';
import { ObservationLimitEnum, ObservationSourceEnum } from './observation.ts';
import { LivenessEnum } from './presence.ts';

const ProviderRef = builder.objectRef<Provider>('Provider').implement({
  description: "A presence provider's declaration (the provider contract).",
  fields: (t) => ({
    providerId: t.exposeID('providerId', { description: 'Its id.' }),
    instanceId: t.exposeString('instanceId', {
      description: 'The provider process that registered last.',
    }),
    goalIds: t.exposeIDList('goalIds', { description: 'The goals it reports for.' }),
    presenceTtlMs: t.exposeInt('presenceTtlMs', {
      description: 'Presence older than this reads UNKNOWN (PRESENCE_TTL_EXPIRED).',
    }),
    supportsPinnedWaits: t.exposeBoolean('supportsPinnedWaits', {
      description: 'Whether its reports carry a monotonic sequence that pinned waits can rely on.',
    }),
    host: t.exposeString('host', {
      nullable: true,
      description:
        "The machine it runs on, as it declared it; null when it declared none. Part of its presences' location, never of an identity.",
    }),
    registeredAt: t.expose('registeredAt', { type: 'DateTime', description: 'Last registration.' }),
  }),
});

const LivenessMappingInput = builder.inputType('LivenessMappingInput', {
  description: 'One provider state and the liveness it maps to.',
  fields: (t) => ({
    providerState: t.string({ required: true, description: "The provider's own state name." }),
    liveness: t.field({ type: LivenessEnum, required: true, description: 'What it means here.' }),
  }),
});

const ObservationSourceInput = builder.inputType('ObservationSourceInput', {
  description: 'An observation source the provider can supply.',
  fields: (t) => ({
    source: t.field({ type: ObservationSourceEnum, required: true, description: 'The source.' }),
    maxLines: t.int({ required: true, description: 'Most lines it keeps (1-10000).' }),
    limits: t.field({
      type: [ObservationLimitEnum],
      required: true,
      description: 'What it cannot recover.',
    }),
  }),
});

const RegisterProviderInput = builder.inputType('RegisterProviderInput', {
  description: 'The provider contract. What is not declared is a typed gap later.',
  fields: (t) => ({
    providerId: t.id({ required: true, description: "Must match the credential's providerId." }),
    instanceId: t.string({
      required: true,
      description: 'This provider process; a new value marks earlier presence stale.',
    }),
    membershipProof: t.string({
      required: true,
      description: 'How a caller proves it is inside the space.',
    }),
    identifierRules: t.string({
      required: true,
      description: 'What happens to location ids after a move, close or restart.',
    }),
    livenessMapping: t.field({
      type: [LivenessMappingInput],
      required: true,
      description: 'Its states mapped to Liveness.',
    }),
    presenceTtlMs: t.int({
      required: true,
      description: 'How long a report stays current (1000-86400000).',
    }),
    observationSources: t.field({
      type: [ObservationSourceInput],
      required: true,
      description: 'Sources with line bounds and unrecoverable cases.',
    }),
    supportsPinnedWaits: t.boolean({
      required: true,
      description:
        'Whether its report sequence is monotonic per location, so pinned waits can rely on it.',
    }),
    persistence: t.string({
      required: true,
      description: 'What survives a client detach, a server restart, a machine restart.',
    }),
    rollup: t.string({ description: 'The rollup it publishes; omit to declare none.' }),
    host: t.string({
      description:
        'The machine it runs on (a host name or an IP address), shown with every presence it reports; omit to declare none. A provider that moves to another machine registers again with the new one.',
    }),
  }),
});

builder.mutationFields((t) => ({
  registerProvider: t.withAuth({ provider: true }).field({
    type: ProviderRef,
    description:
      'Records the provider contract. Provider credentials only, for their own providerId.',
    args: {
      input: t.arg({
        type: RegisterProviderInput,
        required: true,
        description: 'The declaration.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      registerProvider(db, caller, {
        ...input,
        providerId: input.providerId,
        observationSources: input.observationSources.map((s) => ({ ...s, limits: s.limits })),
      }),
  }),
}));
