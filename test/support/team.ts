/**
 * The team fixture: a new goal with its peers (registered agents, each with a PEER token) and
 * a STEWARD token for it, for tests that act as several callers of one goal.
 */
import { createGoal, issueCredential, registerAgent, type TestGateway, uid } from './harness.ts';

export interface Peer {
  goalId: string;
  agentId: string;
  token: string;
}

/**
 * A new goal with one registered agent per name (agent id `<name>-…`), a PEER token for each
 * and a STEWARD token for the goal. Each peer is under its name and in `peers`, in order.
 */
export async function team<const Name extends string = 'a' | 'b'>(
  t: TestGateway,
  names: readonly Name[] = ['a', 'b'] as Name[],
) {
  const goalId = await createGoal(t);
  const peers: Peer[] = [];
  for (const name of names) {
    const agentId = await registerAgent(t, goalId, uid(name));
    const { token } = await issueCredential(t, { kind: 'PEER', goalId, agentId });
    peers.push({ goalId, agentId, token });
  }
  const steward = (await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId] })).token;
  const named = Object.fromEntries(names.map((name, i) => [name, peers[i]])) as Record<Name, Peer>;
  return { goalId, peers, steward, ...named };
}
