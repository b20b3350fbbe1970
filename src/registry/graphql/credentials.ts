/**
 * Credentials and the caller they resolve to: the Credential type, `me`, the credentials
 * listing, and issueCredential, revokeCredential and rotateCredential (a token is shown once).
 */
import type { Caller } from '../../core/caller.ts';
import { builder } from '../../graphql/builder.ts';
import { CallerKindEnum } from '../../graphql/shared.ts';
import {
  credentialStatus,
  type credentialStatuses,
  type IssuedCredential,
  issueCredential,
  type ListedCredential,
  listCredentials,
  revokeCredential,
  rotateCredential,
} from '../registry.ts';
import { goalsInScope } from '../scope.ts';

const CredentialStatusEnum = builder.enumType('CredentialStatus', {
  description:
    'Whether a credential stands for its caller now. Anything but ACTIVE is refused with UNAUTHENTICATED, as an unknown token is.',
  values: {
    ACTIVE: { description: 'It stands for its caller.' },
    EXPIRED: { description: 'Its `expiresAt` has passed. It never becomes active again.' },
    REVOKED: { description: 'Revoked or rotated (`revokedAt`). It never becomes active again.' },
    AGENT_RETIRED: {
      description:
        'A PEER credential whose agent is retired (or no longer registered). Not revoked: the agent being retired is the reason.',
    },
  } satisfies Record<(typeof credentialStatuses)[number], unknown>,
});

const CredentialRef = builder.objectRef<ListedCredential>('Credential').implement({
  description:
    'A credential and what it binds. Never its token: only a hash is stored, and the hash is not served either.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Use it to revoke.' }),
    kind: t.expose('kind', {
      type: CallerKindEnum,
      description: 'The caller kind.',
    }),
    label: t.exposeString('label', { description: 'Free text to recognise it by.' }),
    goalId: t.exposeID('goalId', { nullable: true, description: 'PEER: its goal.' }),
    agentId: t.exposeID('agentId', { nullable: true, description: 'PEER: its agent.' }),
    providerId: t.exposeID('providerId', {
      nullable: true,
      description: 'PROVIDER: its provider.',
    }),
    goalIds: t.exposeIDList('goalIds', { description: 'STEWARD and PROVIDER: its goals.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was issued.' }),
    revokedAt: t.expose('revokedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was revoked (or rotated); null while it is not revoked.',
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      nullable: true,
      description:
        'From this instant on it is refused, on every gateway instance; null: it does not expire. A rotation keeps it.',
    }),
    status: t.field({
      type: CredentialStatusEnum,
      description:
        "Whether it stands for its caller at the time of this answer, by the gateway instance's clock.",
      resolve: (credential) => credentialStatus(credential),
    }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description:
        'When a request last arrived with it, to within a minute: each gateway instance records a use at most once a minute per credential. Null: no use recorded. Not a log of requests, and not proof that it was not used in the last minute.',
    }),
  }),
});

const IssuedCredentialRef = builder.objectRef<IssuedCredential>('IssuedCredential').implement({
  description: 'A new credential and its token. The token is shown here once and never again.',
  fields: (t) => ({
    token: t.exposeString('token', {
      description: 'Send as `Authorization: Bearer <token>`. Store it now: it cannot be read back.',
    }),
    credential: t.expose('credential', {
      type: CredentialRef,
      description: 'What it binds.',
    }),
  }),
});

const CallerRef = builder.objectRef<{ caller: Caller; goalIds: string[] }>('Caller').implement({
  description: 'The caller as resolved from its credential.',
  fields: (t) => ({
    kind: t.field({
      type: CallerKindEnum,
      resolve: (c) => c.caller.kind,
      description: 'Its kind.',
    }),
    credentialId: t.id({
      nullable: true,
      resolve: (c) => c.caller.credentialId,
      description: 'The credential used; null for the operator token.',
    }),
    goalId: t.id({
      nullable: true,
      resolve: (c) => (c.caller.kind === 'PEER' ? c.caller.goalId : null),
      description: 'PEER: its goal.',
    }),
    agentId: t.id({
      nullable: true,
      resolve: (c) => (c.caller.kind === 'PEER' ? c.caller.agentId : null),
      description: 'PEER: its agent.',
    }),
    providerId: t.id({
      nullable: true,
      resolve: (c) => (c.caller.kind === 'PROVIDER' ? c.caller.providerId : null),
      description: 'PROVIDER: its provider.',
    }),
    goalIds: t.exposeIDList('goalIds', {
      description: 'The goals currently in scope (for ADMIN: every goal).',
    }),
  }),
});

const IssueCredentialInput = builder.inputType('IssueCredentialInput', {
  description:
    'What the credential binds. PEER: goalId + agentId. STEWARD: goalIds. PROVIDER: providerId + goalIds. ADMIN: nothing.',
  fields: (t) => ({
    kind: t.field({ type: CallerKindEnum, required: true, description: 'The caller kind.' }),
    goalId: t.id({ description: "PEER: the agent's goal." }),
    agentId: t.id({ description: 'PEER: the agent.' }),
    goalIds: t.idList({ description: 'STEWARD and PROVIDER: existing goals.' }),
    providerId: t.id({ description: 'PROVIDER: the provider it speaks for.' }),
    label: t.string({ description: 'Free text to recognise it by, up to 100 characters.' }),
    expiresAt: t.field({
      type: 'DateTime',
      description:
        'When it stops standing for its caller (it is then refused with UNAUTHENTICATED, and listed EXPIRED); a future instant. Omitted or null: it does not expire.',
    }),
  }),
});

builder.queryFields((t) => ({
  me: t.withAuth({ authenticated: true }).field({
    type: CallerRef,
    description: 'The caller as resolved from its credential, with the goals now in its scope.',
    resolve: async (_root, _args, { db, caller }) => ({
      caller: caller,
      goalIds: await goalsInScope(db, caller),
    }),
  }),
  credentials: t.withAuth({ admin: true }).field({
    type: [CredentialRef],
    description:
      'Credentials, newest first, those that no longer stand included (see `status`): every one, or those whose binding covers `goalId`, of one `kind`. Without tokens or their hashes. Admin only.',
    args: {
      goalId: t.arg.id({
        description:
          "Only credentials bound to this goal (a PEER's goal, a STEWARD's or PROVIDER's goals). ADMIN credentials are bound to no goal.",
      }),
      kind: t.arg({ type: CallerKindEnum, description: 'Only credentials of this kind.' }),
    },
    resolve: (_root, args, { db }) => listCredentials(db, { goalId: args.goalId, kind: args.kind }),
  }),
}));

builder.mutationFields((t) => ({
  issueCredential: t.withAuth({ admin: true }).field({
    type: IssuedCredentialRef,
    description: 'Issues a credential. The token is in this answer only. Admin only.',
    args: {
      input: t.arg({ type: IssueCredentialInput, required: true, description: 'What to write.' }),
    },
    resolve: (_root, { input }, { db }) =>
      issueCredential(db, {
        kind: input.kind,
        goalId: input.goalId ?? null,
        agentId: input.agentId ?? null,
        goalIds: input.goalIds ?? null,
        providerId: input.providerId ?? null,
        label: input.label,
        expiresAt: input.expiresAt ?? null,
      }),
  }),
  revokeCredential: t.withAuth({ admin: true }).field({
    type: CredentialRef,
    description:
      'Revokes a credential: refused from the next request on, and its open sockets are closed. Admin only.',
    args: { id: t.arg.id({ required: true, description: 'The credential id.' }) },
    resolve: async (_root, args, { db, deps }) => {
      const revoked = await revokeCredential(db, args.id);
      deps.credentials.drop(revoked.id); // this instance before the ring: the next request is refused
      return revoked;
    },
  }),
  rotateCredential: t.withAuth({ admin: true }).field({
    type: IssuedCredentialRef,
    description:
      'Replaces a credential with a new one of the same binding, label and expiry (a new id and token, shown in this answer only). The old one is revoked in the same transaction: refused from the next request on, its open streams end with UNAUTHENTICATED and its sockets close. A revoked, expired or unknown id, or a PEER whose agent is retired, is BAD_USER_INPUT and nothing changes. Admin only.',
    args: { id: t.arg.id({ required: true, description: 'The credential to replace.' }) },
    resolve: async (_root, args, { db, deps }) => {
      const rotated = await rotateCredential(db, args.id);
      deps.credentials.drop(args.id);
      return rotated;
    },
  }),
}));
