import { describe, expect, it } from 'vitest';
import {
  ClaimTodoDocument,
  CompleteTodoDocument,
  CreateTodoDocument,
  EvidenceLedgerDocument,
  FrontierDocument,
  HandoffTodoDocument,
  RecordEventDocument,
  RecordReplanCheckpointDocument,
  SetVisionDocument,
} from '../../src/client/generated/graphql.ts';
import { database, t } from '../support/gateway-per-file.ts';
import { countingDatabase, driver, startTestGateway, uid } from '../support/harness.ts';
import { team } from '../support/team.ts';

const OWED = `query($goalId: ID!, $agentId: ID!) {
  replanObligations(goalId: $goalId, agentId: $agentId) {
    __typename
    ... on ReplanObligations {
      goalId agentId owed hasVision headSeq
      obligations { kind detail count countCapped latestSeq }
      lastCheckpoint { seq kind citedDigest }
      requiredReads { query command reason }
    }
    ... on ScopeGap { reason }
  }
}`;
const DIRECTORY = `query($goalId: ID!) { directory(goalId: $goalId) { rows { agentId replanNotices } } }`;

async function owed(token: string, goalId: string, agentId: string) {
  const data = await t.ok(OWED, { goalId, agentId }, token);
  return data.replanObligations;
}

const kinds = (o: { obligations: { kind: string }[] }) => o.obligations.map((x) => x.kind);

async function todo(token: string, goalId: string) {
  const data = await t.ok(
    CreateTodoDocument,
    { input: { goalId, title: uid('todo'), taskClass: 'ADVANCEMENT_TASK' } },
    token,
  );
  return data.createTodo.id as string;
}

async function notices(token: string, goalId: string, agentId: string) {
  const directory = await t.ok(DIRECTORY, { goalId }, token);
  const row = directory.directory.rows.find((r: any) => r.agentId === agentId);
  const frontier = await t.ok(FrontierDocument, { goalId, agentId }, token);
  return { directory: row.replanNotices, frontier: frontier.frontier.replanNotices };
}

async function checkpoint(token: string, goalId: string, agentId: string, digest?: string) {
  const cited =
    digest ??
    (await t.ok(EvidenceLedgerDocument, { goalId, agentId }, token)).evidenceLedger.digest;
  const data = await t.ok(
    RecordReplanCheckpointDocument,
    { goalId, agentId, digest: cited, kind: 'PRESERVED', delta: { summary: 'direction stands' } },
    token,
  );
  return data.recordReplanCheckpoint.__typename;
}

describe(`replan obligations (${driver})`, () => {
  it('owes nothing before anything happened; a vision with no checkpoint shows VISION_CHECKPOINT_MISSING everywhere', async () => {
    const { goalId, a, b, steward } = await team(t);
    expect(await owed(a.token, goalId, a.agentId)).toMatchObject({
      __typename: 'ReplanObligations',
      owed: false,
      obligations: [],
      requiredReads: [],
      lastCheckpoint: null,
      hasVision: false,
    });
    expect(await notices(steward, goalId, a.agentId)).toEqual({ directory: [], frontier: [] });
    await t.ok(
      SetVisionDocument,
      {
        input: {
          goalId,
          roleScope: 'src/work',
          visionSummary: 'finish the work graph',
          acceptanceSummary: 'tests green',
          replanTriggerSummary: 'a gate opens',
        },
      },
      a.token,
    );
    const after = await owed(a.token, goalId, a.agentId);
    expect(after).toMatchObject({ owed: true, hasVision: true });
    expect(kinds(after)).toEqual(['VISION_CHECKPOINT_MISSING']);
    expect(after.requiredReads).toEqual([
      {
        query: `evidenceLedger(goalId: "${goalId}", agentId: "${a.agentId}")`,
        command: `switchboard evidence-log --agent ${a.agentId} --limit 30`,
        reason: expect.stringContaining('recordReplanCheckpoint'),
      },
    ]);
    expect(await notices(steward, goalId, a.agentId)).toEqual({
      directory: ['VISION_CHECKPOINT_MISSING'],
      frontier: ['VISION_CHECKPOINT_MISSING'],
    });
    // Another agent's row is unaffected.
    expect(await notices(steward, goalId, b.agentId)).toEqual({ directory: [], frontier: [] });
    // A digest-checked checkpoint clears it, on the directory and the frontier too.
    expect(await checkpoint(a.token, goalId, a.agentId)).toBe('ReplanCheckpoint');
    const cleared = await owed(a.token, goalId, a.agentId);
    expect(cleared).toMatchObject({ owed: false, lastCheckpoint: { kind: 'PRESERVED' } });
    expect(cleared.lastCheckpoint.citedDigest).toMatch(/^sha256:/);
    expect(await notices(steward, goalId, a.agentId)).toEqual({ directory: [], frontier: [] });
  });

  it('material progress is owed until a digest-checked checkpoint; an acknowledgement clears nothing', async () => {
    const { goalId, a } = await team(t);
    const id = await todo(a.token, goalId);
    await t.ok(ClaimTodoDocument, { input: { goalId, todoId: id } }, a.token);
    await t.ok(
      CompleteTodoDocument,
      { input: { goalId, todoId: id, evidenceRefs: ['ci/run.txt'] } },
      a.token,
    );
    const first = await owed(a.token, goalId, a.agentId);
    expect(kinds(first)).toEqual(['MATERIAL_SINCE_CHECKPOINT']);
    const count = first.obligations[0].count;
    expect(count).toBeGreaterThanOrEqual(2); // created, completed (a claim is not material)

    // Saying so is not a checkpoint: it is one more material row.
    await t.ok(
      RecordEventDocument,
      {
        input: {
          goalId,
          eventKind: 'VALIDATION',
          classification: 'replan',
          status: 'acknowledged',
          summary: 'acknowledged: replanned, direction preserved',
        },
      },
      a.token,
    );
    const acknowledged = await owed(a.token, goalId, a.agentId);
    expect(acknowledged.owed).toBe(true);
    expect(acknowledged.obligations[0].count).toBe(count + 1);
    // A checkpoint citing a digest that is not of a current read is refused and clears nothing.
    expect(await checkpoint(a.token, goalId, a.agentId, `sha256:${'0'.repeat(64)}`)).toBe(
      'LedgerDigestMismatch',
    );
    expect((await owed(a.token, goalId, a.agentId)).owed).toBe(true);
    expect(await checkpoint(a.token, goalId, a.agentId)).toBe('ReplanCheckpoint');
    const cleared = await owed(a.token, goalId, a.agentId);
    expect(cleared).toMatchObject({ owed: false, obligations: [], requiredReads: [] });
    // New material progress after the checkpoint is owed again, counted from it.
    await todo(a.token, goalId);
    const again = await owed(a.token, goalId, a.agentId);
    expect(again.obligations).toEqual([
      expect.objectContaining({
        kind: 'MATERIAL_SINCE_CHECKPOINT',
        count: 1,
        detail: expect.stringContaining(
          `since its checkpoint at seq ${cleared.lastCheckpoint.seq}`,
        ),
      }),
    ]);
  });

  it('a handoff received is owed by the receiver; read like a ledger (a peer its own, a steward any)', async () => {
    const { goalId, a, b, steward } = await team(t);
    const id = await todo(a.token, goalId);
    await t.ok(ClaimTodoDocument, { input: { goalId, todoId: id } }, a.token);
    await checkpoint(a.token, goalId, a.agentId);
    await checkpoint(b.token, goalId, b.agentId);
    expect((await owed(b.token, goalId, b.agentId)).owed).toBe(false);
    await t.ok(
      HandoffTodoDocument,
      {
        input: {
          goalId,
          todoId: id,
          to: b.agentId,
          nextAction: 'finish it',
          validation: 'tests pass',
          stopCondition: 'done',
          omitted: [],
        },
      },
      a.token,
    );
    const receiver = await owed(steward, goalId, b.agentId);
    expect(kinds(receiver)).toEqual(['MATERIAL_SINCE_CHECKPOINT', 'HANDOFF_RECEIVED']);
    expect(receiver.obligations[1]).toMatchObject({ count: 1, latestSeq: expect.any(String) });
    expect(kinds(await owed(a.token, goalId, a.agentId))).toEqual(['MATERIAL_SINCE_CHECKPOINT']);
    expect(await owed(a.token, goalId, b.agentId)).toEqual({
      __typename: 'ScopeGap',
      reason: 'NOT_OWN_LEDGER',
    });
    const unknown = await t.gql(OWED, { goalId, agentId: 'codex' }, steward);
    expect(unknown.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('reads in a constant number of SQL statements, however long the ledger and the work graph', async () => {
    const counting = countingDatabase(database);
    const gateway = await startTestGateway(counting.database);
    try {
      const measure = async (todoCount: number) => {
        const { goalId, a } = await team(t);
        for (let i = 0; i < todoCount; i++) {
          const id = await todo(a.token, goalId);
          if (i % 2) await t.ok(ClaimTodoDocument, { input: { goalId, todoId: id } }, a.token);
        }
        counting.reset();
        const data = await gateway.ok(OWED, { goalId, agentId: a.agentId }, a.token);
        expect(data.replanObligations.owed).toBe(true);
        return counting.statements();
      };
      const small = await measure(1);
      const large = await measure(25);
      expect(large).toBe(small);
      expect(large).toBeLessThanOrEqual(8);
    } finally {
      await gateway.stop();
    }
  }, 120_000);
});
