/**
 * Credentials as an operator manages them: listing (never a token or its hash), rotation, when
 * each was last used; and the per-instance cache that spares every request its lookup, with
 * what drops its entries (the credential's ring, the doorbell missing rings, the TTL).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  CredentialsDocument,
  RetireAgentDocument,
  RevokeCredentialDocument,
} from '../src/client/generated/graphql.ts';
import { rowsOf } from '../src/db/sql.ts';
import { Doorbell } from '../src/events/doorbell.ts';
import {
  CREDENTIAL_TTL_MS,
  CredentialCache,
  LAST_USED_INTERVAL_MS,
} from '../src/registry/credentials.ts';
import { revokeCredential } from '../src/registry/registry.ts';
import { hashToken } from '../src/registry/tokens.ts';
import { REVALIDATE_MS } from '../src/streams.ts';
import { asCaller, runCli } from './support/cli.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  countingDatabase,
  createGoal,
  doorbellBus,
  driver,
  eventually,
  issueCredential,
  peerInNewGoal,
  registerAgent,
  startTestGateway,
  subscribe,
  type TestGateway,
  uid,
  wsClient,
  wsQuery,
} from './support/harness.ts';

const ROTATE = `mutation($id: ID!) {
  rotateCredential(id: $id) { token credential { id kind label goalId agentId goalIds providerId revokedAt expiresAt } }
}`;
const ME = '{ me { kind agentId credentialId } }';

const credentialRows = async () =>
  Number(
    rowsOf<{ n: string | number }>(
      await database.db.execute(sql`select count(*) as n from credentials`),
    )[0]?.n,
  );

describe(`credentials: list and rotate (${driver})`, () => {
  it('lists the credentials bound to a goal, of a kind, newest first, revoked included, with no token or hash', async () => {
    const goalId = await createGoal(t);
    const other = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const peer = await issueCredential(t, { kind: 'PEER', goalId, agentId, label: 'builder' });
    const steward = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId, other] });
    const provider = await issueCredential(t, {
      kind: 'PROVIDER',
      providerId: uid('tmux'),
      goalIds: [goalId],
    });
    const elsewhere = await issueCredential(t, { kind: 'STEWARD', goalIds: [other] });
    await t.ok(RevokeCredentialDocument, { id: provider.id });

    const { credentials } = await t.ok(CredentialsDocument, { goalId });
    expect(credentials.map((c: { id: string }) => c.id)).toEqual([
      provider.id,
      steward.id,
      peer.id,
    ]);
    expect(credentials[2]).toEqual({
      id: peer.id,
      kind: 'PEER',
      label: 'builder',
      goalId,
      agentId,
      providerId: null,
      goalIds: [],
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
      expiresAt: null,
      status: 'ACTIVE',
    });
    expect(credentials[0]).toMatchObject({ revokedAt: expect.any(String), status: 'REVOKED' });
    const text = JSON.stringify(credentials);
    for (const token of [peer.token, steward.token, provider.token]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(hashToken(token));
    }
    expect(text).not.toContain(elsewhere.id);

    const stewards = await t.ok(CredentialsDocument, { goalId, kind: 'STEWARD' });
    expect(stewards.credentials.map((c: { id: string }) => c.id)).toEqual([steward.id]);
    const all = await t.ok(CredentialsDocument, {});
    expect(all.credentials.map((c: { id: string }) => c.id)).toEqual(
      expect.arrayContaining([peer.id, steward.id, provider.id, elsewhere.id]),
    );
    expect((await t.ok(CredentialsDocument, { goalId: uid('missing') })).credentials).toEqual([]);

    const asPeer = await t.gql(CredentialsDocument, { goalId }, peer.token);
    expect(asPeer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const bad = await t.gql(CredentialsDocument, { goalId: '../x' });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('rotation: a new token of the same binding and label; the old one is refused at once and its open streams end like a revocation', async () => {
    // A TTL far beyond the test: only the rotation itself can end the cached entry.
    const g = await startTestGateway(
      database,
      { adminToken: t.adminToken },
      {
        credentials: { ttlMs: 3_600_000 },
      },
    );
    onTestFinished(() => g.stop());
    const peer = await peerInNewGoal(t);
    const labelled = await issueCredential(t, {
      kind: 'PEER',
      goalId: peer.goalId,
      agentId: peer.agentId,
      label: 'builder laptop',
    });
    // An open socket and subscription under the old token, and a request that cached it.
    let closed: { code: number } | undefined;
    const client = wsClient(g.wsUrl, labelled.token, (event) => {
      closed = event;
    });
    const stream = subscribe(
      client,
      `subscription($g: ID!, $a: ID!) { ledgerEvents(goalId: $g, agentId: $a, after: "0") { __typename } }`,
      { g: peer.goalId, a: peer.agentId },
      'ledgerEvents',
    );
    expect((await wsQuery(client, ME)).data?.me.credentialId).toBe(labelled.id);
    expect((await g.ok(ME, {}, labelled.token)).me.credentialId).toBe(labelled.id);

    const { rotateCredential } = await g.ok(ROTATE, { id: labelled.id });
    expect(rotateCredential.credential).toEqual({
      id: expect.not.stringMatching(labelled.id),
      kind: 'PEER',
      label: 'builder laptop',
      goalId: peer.goalId,
      agentId: peer.agentId,
      goalIds: [],
      providerId: null,
      revokedAt: null,
      expiresAt: null,
    });
    expect(rotateCredential.token).not.toBe(labelled.token);
    // The very next request with the old token, on the instance that had it cached.
    const old = await g.gql(ME, {}, labelled.token);
    expect(old.status).toBe(401);
    expect(old.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await t.ok(ME, {}, rotateCredential.token)).me).toEqual({
      kind: 'PEER',
      agentId: peer.agentId,
      credentialId: rotateCredential.credential.id,
    });
    await eventually(() => (stream.errors.length > 0 ? true : undefined), 'the stream to end');
    expect(JSON.stringify(stream.errors[0])).toContain('UNAUTHENTICATED');
    expect((await eventually(() => closed, 'the old socket to close')).code).toBe(4403);
    await client.dispose();

    const listed = await t.ok(CredentialsDocument, { goalId: peer.goalId });
    const oldRow = listed.credentials.find((c: { id: string }) => c.id === labelled.id);
    expect(oldRow.revokedAt).toEqual(expect.any(String));
    // The other credential of the same agent is untouched.
    expect((await t.ok(ME, {}, peer.token)).me.credentialId).toBe(peer.credentialId);
  });

  it('refuses to rotate a revoked, unknown or retired credential, and writes nothing', async () => {
    const peer = await peerInNewGoal(t);
    const first = await t.ok(ROTATE, { id: peer.credentialId });
    const before = await credentialRows();
    const again = await t.gql(ROTATE, { id: peer.credentialId });
    expect(again.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(again.errors?.[0]?.message).toContain('is revoked');
    const unknown = await t.gql(ROTATE, { id: 'cred_nothing' });
    expect(unknown.errors?.[0]?.message).toContain('no credential with id cred_nothing');
    await t.ok(RetireAgentDocument, { goalId: peer.goalId, agentId: peer.agentId });
    const retired = await t.gql(ROTATE, { id: first.rotateCredential.credential.id });
    expect(retired.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(retired.errors?.[0]?.message).toContain('is retired');
    expect(await credentialRows()).toBe(before);
    // The refused rotation rolled back its revocation too.
    const listed = await t.ok(CredentialsDocument, { goalId: peer.goalId });
    const current = listed.credentials.find(
      (c: { id: string }) => c.id === first.rotateCredential.credential.id,
    );
    expect(current.revokedAt).toBeNull();
    // The retired agent's new token no longer stands; another peer's may not rotate.
    const asRetired = await t.gql(ROTATE, { id: peer.credentialId }, first.rotateCredential.token);
    expect(asRetired.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const asPeer = await t.gql(ROTATE, { id: peer.credentialId }, (await peerInNewGoal(t)).token);
    expect(asPeer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('records when a credential was last used, at most once per interval per instance', async () => {
    const peer = await peerInNewGoal(t);
    const lastUsed = async () =>
      rowsOf<{ at: string | Date | null }>(
        await database.db.execute(
          sql`select last_used_at as at from credentials where id = ${peer.credentialId}`,
        ),
      )[0]?.at ?? null;
    expect(await lastUsed()).toBeNull();
    await t.ok(ME, {}, peer.token);
    await eventually(async () => ((await lastUsed()) === null ? undefined : true), 'a use');
    const listed = await t.ok(CredentialsDocument, { goalId: peer.goalId });
    expect(listed.credentials[0].lastUsedAt).toEqual(expect.any(String));
    // Within the interval, more requests write nothing: an old mark stays as it is.
    await database.db.execute(
      sql`update credentials set last_used_at = '2000-01-01T00:00:00Z' where id = ${peer.credentialId}`,
    );
    for (let i = 0; i < 5; i++) await t.ok(ME, {}, peer.token);
    await t.ok(CredentialsDocument, {}); // one more round trip for a write that might still be on its way
    expect(new Date((await lastUsed()) as string).toISOString()).toBe('2000-01-01T00:00:00.000Z');
    expect(LAST_USED_INTERVAL_MS).toBe(60_000);
  });
});

describe(`the credential cache (${driver})`, () => {
  let doorbell: Doorbell;
  beforeAll(async () => {
    doorbell = new Doorbell({ probeMs: 1000, bus: doorbellBus });
    await doorbell.open(database);
  });
  afterAll(async () => {
    await doorbell?.close();
  });

  it('a cached credential costs no statement; an unknown one is never cached; the TTL bounds an entry', async () => {
    const peer = await peerInNewGoal(t);
    const counted = countingDatabase(database);
    const cache = new CredentialCache(counted.database.db, hashToken('operator'), null, {
      ttlMs: 300,
      lastUsedIntervalMs: 3_600_000,
    });
    const first = await cache.resolve(`Bearer ${peer.token}`);
    expect(first).toEqual({
      kind: 'PEER',
      credentialId: peer.credentialId,
      goalId: peer.goalId,
      agentId: peer.agentId,
    });
    await eventually(() => (counted.statements() >= 2 ? true : undefined), 'lookup + last use');
    counted.reset();
    for (let i = 0; i < 20; i++) expect(await cache.resolve(`Bearer ${peer.token}`)).toEqual(first);
    expect(counted.statements()).toBe(0);
    expect(await cache.resolve('Bearer operator')).toEqual({ kind: 'ADMIN', credentialId: null });
    expect(await cache.resolve(null)).toBeNull();
    await expect(cache.resolve('Basic abc')).rejects.toThrow('must be "Bearer <token>"');
    for (let i = 0; i < 2; i++) {
      await expect(cache.resolve('Bearer sb_unknown')).rejects.toThrow(
        'unknown, revoked or expired',
      );
    }
    // The second refusal comes from memory (UNKNOWN_TTL_MS): one lookup in all.
    expect(counted.statements()).toBe(1);
    expect(cache.size).toBe(1);
    // Past the TTL it asks again: revoked behind its back (no ring), it now refuses.
    await database.db.execute(
      sql`update credentials set revoked_at = now() where id = ${peer.credentialId}`,
    );
    await eventually(
      () =>
        cache.resolve(`Bearer ${peer.token}`).then(
          () => undefined,
          (error: Error) => error.message,
        ),
      'the TTL to expire the entry',
    );
    cache.close();
  });

  it("a credential's ring drops its entry on every cache that heard it; a reconnect drops all", async () => {
    const peer = await peerInNewGoal(t);
    const other = await peerInNewGoal(t);
    // A TTL far beyond the test: only the ring can end the entry.
    const cache = new CredentialCache(database.db, hashToken('operator'), doorbell, {
      ttlMs: 3_600_000,
    });
    await cache.resolve(`Bearer ${peer.token}`);
    await cache.resolve(`Bearer ${other.token}`);
    expect(cache.size).toBe(2);
    await revokeCredential(database.db, peer.credentialId); // rings when it commits
    await eventually(() => (cache.size === 1 ? true : undefined), 'the ring to drop the entry');
    await expect(cache.resolve(`Bearer ${peer.token}`)).rejects.toThrow(
      'unknown, revoked or expired',
    );
    expect((await cache.resolve(`Bearer ${other.token}`))?.credentialId).toBe(other.credentialId);
    cache.clear(); // what a new listening connection (or polling while deaf) does
    expect(cache.size).toBe(0);
    cache.close();
  });

  it('its TTL is the bound of the open-stream re-check', () => {
    expect(CREDENTIAL_TTL_MS).toBe(REVALIDATE_MS);
  });
});

describe(`revocation reaches every instance's cache (${driver})`, () => {
  let b: TestGateway;
  beforeAll(async () => {
    b = await startTestGateway(database, { adminToken: t.adminToken });
  });
  afterAll(async () => {
    await b?.stop();
  });

  it('with the ring heard, another instance refuses the revoked token', async () => {
    const peer = await peerInNewGoal(t);
    expect((await b.ok(ME, {}, peer.token)).me.credentialId).toBe(peer.credentialId);
    await t.ok(RevokeCredentialDocument, {
      id: peer.credentialId,
    });
    await eventually(
      async () => ((await b.gql(ME, {}, peer.token)).status === 401 ? true : undefined),
      'the other instance to refuse it',
    );
  });

  it('with the ring lost, another instance refuses the revoked token within the TTL', async () => {
    const peer = await peerInNewGoal(t);
    expect((await b.ok(ME, {}, peer.token)).me.credentialId).toBe(peer.credentialId);
    // Revoked behind every gateway's back: no ring, as if it were lost.
    const revokedAt = Date.now();
    await database.db.execute(
      sql`update credentials set revoked_at = now() where id = ${peer.credentialId}`,
    );
    await eventually(
      async () => ((await b.gql(ME, {}, peer.token)).status === 401 ? true : undefined),
      'the TTL to end the cached entry',
      CREDENTIAL_TTL_MS + 5_000,
    );
    // Generous for a loaded machine, yet far below "never" or a long TTL.
    expect(Date.now() - revokedAt).toBeLessThan(CREDENTIAL_TTL_MS + 5_000);
  });
});

describe(`credentials that expire (${driver})`, () => {
  const ISSUE = `mutation($input: IssueCredentialInput!) {
    issueCredential(input: $input) { token credential { id expiresAt status } }
  }`;
  // Another instance whose cache keeps an entry for an hour: only the expiry can end it.
  let b: TestGateway;
  beforeAll(async () => {
    b = await startTestGateway(
      database,
      { adminToken: t.adminToken },
      { credentials: { ttlMs: 3_600_000 } },
    );
  });
  afterAll(async () => {
    await b?.stop();
  });

  it('are refused from their expiry on, by every instance and however long it caches, and listed EXPIRED', async () => {
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const expiresAt = new Date(Date.now() + 3_000).toISOString();
    const issued = (await t.ok(ISSUE, { input: { kind: 'PEER', goalId, agentId, expiresAt } }))
      .issueCredential;
    expect(issued.credential).toEqual({ id: expect.any(String), expiresAt, status: 'ACTIVE' });
    for (const gateway of [t, b]) {
      expect((await gateway.ok(ME, {}, issued.token)).me.credentialId).toBe(issued.credential.id);
    }
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 1));
    for (const gateway of [b, t]) {
      const refused = await gateway.gql(ME, {}, issued.token);
      expect(refused.status).toBe(401);
      expect(refused.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    const listed = (await t.ok(CredentialsDocument, { goalId })).credentials;
    expect(listed).toEqual([
      expect.objectContaining({ id: issued.credential.id, expiresAt, status: 'EXPIRED' }),
    ]);
    // An expired credential is not rotated into a live one.
    const before = await credentialRows();
    const rotated = await t.gql(ROTATE, { id: issued.credential.id });
    expect(rotated.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(rotated.errors?.[0]?.message).toContain(`expired at ${expiresAt}`);
    expect(await credentialRows()).toBe(before);
    expect((await t.ok(CredentialsDocument, { goalId })).credentials[0].revokedAt).toBeNull();
  }, 30_000);

  it('an expiry not in the future is BAD_USER_INPUT and writes nothing; a rotation keeps the expiry', async () => {
    const goalId = await createGoal(t);
    const before = await credentialRows();
    const past = await t.gql(ISSUE, {
      input: { kind: 'STEWARD', goalIds: [goalId], expiresAt: '2020-01-01T00:00:00Z' },
    });
    expect(past.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(past.errors?.[0]?.message).toContain('expiresAt must be in the future');
    expect(await credentialRows()).toBe(before);
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const issued = (await t.ok(ISSUE, { input: { kind: 'STEWARD', goalIds: [goalId], expiresAt } }))
      .issueCredential;
    const rotated = await t.ok(ROTATE, { id: issued.credential.id });
    expect(rotated.rotateCredential.credential.expiresAt).toBe(expiresAt);
  });
});

describe('switchboard admin token issue|list|rotate (the CLI as a subprocess)', () => {
  it('list shows each credential without its token, --json equals the API; rotate prints the new token alone and the old one stops working', async () => {
    const peer = await peerInNewGoal(t);
    const admin = asCaller(t.url, t.adminToken, peer.goalId);
    const json = await runCli(['admin', 'token', 'list', '--json'], { env: admin });
    expect(json.code).toBe(0);
    expect(json.json()).toEqual(
      (await t.ok(CredentialsDocument, { goalId: peer.goalId })).credentials,
    );
    const human = await runCli(['admin', 'token', 'list', '--kind', 'peer'], { env: admin });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(peer.credentialId);
    expect(human.stdout).toContain(`${peer.goalId}/${peer.agentId}`);
    expect(human.stdout).toContain('never');
    expect(human.stdout).not.toContain(peer.token);

    const rotated = await runCli(['admin', 'token', 'rotate', peer.credentialId], { env: admin });
    expect(rotated.code).toBe(0);
    const token = rotated.stdout.trim();
    expect(token).toMatch(/^sb_\S+$/);
    expect(rotated.stdout).toBe(`${token}\n`);
    expect(rotated.stderr).toContain(`rotated ${peer.credentialId}`);
    expect(rotated.stderr).not.toContain(token);
    const oldOne = await runCli(['whoami'], { env: asCaller(t.url, peer.token) });
    expect(oldOne.code).toBe(3);
    const newOne = await runCli(['whoami', '--json'], { env: asCaller(t.url, token) });
    expect(newOne.code).toBe(0);
    expect(newOne.json().agentId).toBe(peer.agentId);

    const again = await runCli(['admin', 'token', 'rotate', peer.credentialId], { env: admin });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('is revoked');
    expect(again.stderr.trim().split('\n')).toHaveLength(1);

    for (const verb of ['list', 'rotate']) {
      const help = await runCli(['admin', 'token', verb, '--help']);
      expect(help.stdout).toMatch(/Examples?:\n\s+\$ switchboard admin token/);
    }
  }, 60_000);

  it('issue --expires takes a duration or an ISO time; list shows when each expires and its status', async () => {
    const goalId = await createGoal(t);
    const admin = asCaller(t.url, t.adminToken, goalId);
    const issue = (expires: string) =>
      runCli(
        ['admin', 'token', 'issue', '--kind', 'steward', '--goals', goalId, '--expires', expires],
        {
          env: admin,
        },
      );
    const issued = await issue('30d');
    expect(issued.code, issued.stderr).toBe(0);
    const [listed] = (await t.ok(CredentialsDocument, { goalId })).credentials;
    expect(Date.parse(listed.expiresAt) - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
    expect(Date.parse(listed.expiresAt) - Date.now()).toBeLessThan(30 * 86_400_000);
    const human = await runCli(['admin', 'token', 'list'], { env: admin });
    expect(human.stdout).toMatch(new RegExp(`${listed.id}.*ACTIVE.*in 30 d`));
    const bad = await issue('soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected a duration (90m, 12h, 30d, 8w) or an ISO time');
    const past = await issue('2020-01-01T00:00:00Z');
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('expiresAt must be in the future');
    expect((await t.ok(CredentialsDocument, { goalId })).credentials).toHaveLength(1);
  }, 60_000);
});
