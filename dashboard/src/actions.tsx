/**
 * The decisions a person owns, made in place: each through an existing GraphQL mutation with
 * the page's credential, after a confirmation that names exactly what will change, and with
 * the typed result shown verbatim (a refusal too). Nothing here assigns work or reorders the
 * frontier.
 */
import { type ComponentChildren, createContext } from 'preact';
import { useContext, useState } from 'preact/hooks';
import {
  ClientError,
  CloseNoFollowUpDocument,
  CompleteTodoDocument,
  CredentialsDocument,
  DeliverDocument,
  ReleaseClaimDocument,
  ReleaseLeaseDocument,
  ResolveGateDocument,
  RetireAgentDocument,
  RevokeCredentialDocument,
} from '../../src/client/index.ts';
import { ErrorNotice, Loading, Section, When } from './common.tsx';
import { words } from './format.ts';
import { useConnection, useLoad, useNow } from './hooks.ts';

type Outcome = { ok: true; result: unknown } | { ok: false; kind: string; message: string };

/** An action's outcome, kept by the page so it stays when the row it came from goes away. */
export interface Done {
  readonly name: string;
  readonly label: string;
  readonly outcome: Outcome;
}

export const ActionLogContext = createContext<(done: Done) => void>(() => {});

/** The last action's outcome: the typed result as JSON, or the refusal with its kind. */
export function ActionLog(props: { done: Done | undefined; onClose: () => void }) {
  const { done } = props;
  if (!done) return null;
  const { outcome } = done;
  return (
    <output
      class={outcome.ok ? 'result' : 'result refused'}
      data-testid="action-result"
      data-action={done.name}
      data-outcome={outcome.ok ? (typenameOf(outcome.result) ?? 'ok') : `refused:${outcome.kind}`}
    >
      <strong>{done.label}:</strong>{' '}
      {outcome.ok ? (
        <pre>{JSON.stringify(outcome.result, null, 2)}</pre>
      ) : (
        <>
          refused ({outcome.kind}): {outcome.message}
        </>
      )}{' '}
      <button type="button" onClick={props.onClose}>
        Dismiss
      </button>
    </output>
  );
}

/**
 * A button that first asks (the `confirm` text names what will change), then runs `run`; its
 * outcome goes to the page's action log.
 */
export function Action(props: {
  label: string;
  confirm: ComponentChildren;
  run: () => Promise<unknown>;
  /** Inputs the action needs, shown with the confirmation. */
  fields?: ComponentChildren;
  /** After a result that is not a refusal. */
  onDone?: () => void;
  name: string;
}) {
  const log = useContext(ActionLogContext);
  const [state, setState] = useState<'idle' | 'confirming' | 'running'>('idle');
  const run = async () => {
    setState('running');
    try {
      const result = await props.run();
      log({ name: props.name, label: props.label, outcome: { ok: true, result } });
      setState('idle');
      props.onDone?.();
    } catch (failure) {
      log({
        name: props.name,
        label: props.label,
        outcome: {
          ok: false,
          kind: failure instanceof ClientError ? failure.kind : 'ERROR',
          message: (failure as Error).message,
        },
      });
      setState('idle');
    }
  };
  return (
    <div class="action" data-action={props.name}>
      {state === 'idle' ? (
        <button type="button" onClick={() => setState('confirming')}>
          {props.label}
        </button>
      ) : (
        <form
          class="confirm"
          role="alertdialog"
          aria-label={`Confirm: ${props.label}`}
          onSubmit={(event) => {
            event.preventDefault();
            void run();
          }}
        >
          <p data-testid="confirm-text">{props.confirm}</p>
          {props.fields}
          <button type="submit" disabled={state === 'running'}>
            {state === 'running' ? 'Working…' : 'Confirm'}
          </button>{' '}
          <button type="button" onClick={() => setState('idle')} disabled={state === 'running'}>
            Cancel
          </button>
        </form>
      )}
    </div>
  );
}

/** The __typename of a mutation's only root field, for data-outcome. */
function typenameOf(result: unknown): string | undefined {
  const field = Object.values(result as Record<string, unknown>)[0];
  return (field as { __typename?: string } | undefined)?.__typename;
}

/** Grant or deny a gate (ADMIN or STEWARD). */
export function DecideGate(props: { goalId: string; gateId: string; gate: string; todo: string }) {
  const { client } = useConnection();
  const [decision, setDecision] = useState<'GRANTED' | 'DENIED'>('GRANTED');
  const [note, setNote] = useState('');
  return (
    <Action
      name="decide-gate"
      label="Decide the gate"
      confirm={
        <>
          Decide gate {props.gate} as <strong>{words(decision)}</strong>: {props.todo}{' '}
          {decision === 'GRANTED'
            ? 'may go ahead once nothing else guards it.'
            : 'stays guarded until the gate expires; covered work must be superseded or closed.'}
        </>
      }
      fields={
        <p>
          <label>
            Decision{' '}
            <select
              name="decision"
              value={decision}
              onChange={(e) => setDecision(e.currentTarget.value as 'GRANTED' | 'DENIED')}
            >
              <option value="GRANTED">grant</option>
              <option value="DENIED">deny</option>
            </select>
          </label>{' '}
          <label>
            Note <input name="note" value={note} onInput={(e) => setNote(e.currentTarget.value)} />
          </label>
        </p>
      }
      run={() =>
        client.request(ResolveGateDocument, {
          input: {
            goalId: props.goalId,
            gateId: props.gateId,
            decision,
            ...(note.trim() ? { note: note.trim() } : {}),
          },
        })
      }
    />
  );
}

/** Release an agent's claim on a todo (its owner, or ADMIN/STEWARD). */
export function TakeBackClaim(props: {
  goalId: string;
  todoId: string;
  agentId: string;
  todo: string;
}) {
  const { client } = useConnection();
  return (
    <Action
      name="take-back-claim"
      label="Take back the claim"
      confirm={
        <>
          Release {props.agentId}’s claim on {props.todo}: the todo becomes unclaimed and any agent
          whose frontier it is on may claim it.
        </>
      }
      run={() =>
        client.request(ReleaseClaimDocument, {
          input: { goalId: props.goalId, todoId: props.todoId, agentId: props.agentId },
        })
      }
    />
  );
}

/**
 * Release a lease that expired, by its fence (compare-and-set): the holder of that fence, or an
 * ADMIN/STEWARD; anyone else gets StaleFence. The caller acts as itself (no agent named).
 */
export function ReleaseExpiredLease(props: {
  goalId: string;
  todoId: string;
  holder: string;
  fence: string;
  todo: string;
}) {
  const { client } = useConnection();
  return (
    <Action
      name="release-lease"
      label="Release the expired lease"
      confirm={
        <>
          Release {props.holder}’s expired lease on {props.todo} (fence {props.fence}): the todo has
          no lease holder after it; its claim, if any, stays. A fence that moved since is refused.
        </>
      }
      run={() =>
        client.request(ReleaseLeaseDocument, {
          input: { goalId: props.goalId, todoId: props.todoId, fence: props.fence },
        })
      }
    />
  );
}

/**
 * Decide a USER_GATE todo: done, with a reference to the decision as evidence, or closed with
 * no follow-up and a reason. Lifecycle authority: its claimant, anyone while it is unclaimed,
 * or an ADMIN/STEWARD; anyone else gets ClaimedByOther. The caller acts as itself.
 */
export function DecideUserGate(props: { goalId: string; todoId: string; todo: string }) {
  const { client } = useConnection();
  const [outcome, setOutcome] = useState<'DONE' | 'CLOSED'>('DONE');
  const [evidence, setEvidence] = useState('');
  const [reason, setReason] = useState('');
  return (
    <Action
      name="decide-user-gate"
      label="Decide this user gate"
      confirm={
        outcome === 'DONE' ? (
          <>
            Mark {props.todo} <strong>done</strong>, decided, with the evidence “
            {evidence || '(none yet)'}”: work that depends on it may go ahead once nothing else
            guards it.
          </>
        ) : (
          <>
            <strong>Close</strong> {props.todo} with no follow-up, because “
            {reason || '(no reason yet)'}”: it leaves the frontier and is not done.
          </>
        )
      }
      fields={
        <p>
          <label>
            Outcome{' '}
            <select
              name="outcome"
              value={outcome}
              onChange={(e) => setOutcome(e.currentTarget.value as 'DONE' | 'CLOSED')}
            >
              <option value="DONE">decided: done</option>
              <option value="CLOSED">closed, no follow-up</option>
            </select>
          </label>{' '}
          {outcome === 'DONE' ? (
            <label>
              Evidence (a relative reference){' '}
              <input
                name="evidence"
                required
                value={evidence}
                onInput={(e) => setEvidence(e.currentTarget.value)}
              />
            </label>
          ) : (
            <label>
              Reason{' '}
              <input
                name="reason"
                required
                value={reason}
                onInput={(e) => setReason(e.currentTarget.value)}
              />
            </label>
          )}
        </p>
      }
      run={() =>
        outcome === 'DONE'
          ? client.request(CompleteTodoDocument, {
              input: { goalId: props.goalId, todoId: props.todoId, evidenceRefs: [evidence] },
            })
          : client.request(CloseNoFollowUpDocument, {
              input: { goalId: props.goalId, todoId: props.todoId, reason },
            })
      }
    />
  );
}

/** Send a request or context message to an agent. */
export function SendMessage(props: { goalId: string; agentId: string; onDone?: () => void }) {
  const { client } = useConnection();
  const [kind, setKind] = useState<'REQUEST' | 'CONTEXT'>('REQUEST');
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  // One key per message composed: a retried confirmation is the same delivery, not a second.
  const [key, setKey] = useState(() => crypto.randomUUID());
  return (
    <Action
      name="send-message"
      label="Send a message"
      confirm={
        <>
          Send a {words(kind)} to {props.agentId}, “{subject || '(no subject yet)'}”. It is written
          to {props.agentId}’s inbox; it grants nothing and is never resent.
        </>
      }
      fields={
        <div class="message-fields">
          <label>
            Kind{' '}
            <select
              name="kind"
              value={kind}
              onChange={(e) => setKind(e.currentTarget.value as 'REQUEST' | 'CONTEXT')}
            >
              <option value="REQUEST">request</option>
              <option value="CONTEXT">context</option>
            </select>
          </label>
          <label>
            Subject{' '}
            <input
              name="subject"
              required
              value={subject}
              onInput={(e) => setSubject(e.currentTarget.value)}
            />
          </label>
          <label>
            Body{' '}
            <textarea
              name="body"
              required
              value={body}
              onInput={(e) => setBody(e.currentTarget.value)}
            />
          </label>
        </div>
      }
      run={() =>
        client.request(DeliverDocument, {
          input: {
            goalId: props.goalId,
            to: props.agentId,
            kind,
            subject,
            body,
            idempotencyKey: key,
          },
        })
      }
      onDone={() => {
        setKey(crypto.randomUUID());
        props.onDone?.();
      }}
    />
  );
}

/** Retire an agent (ADMIN only). */
export function RetireAgent(props: { goalId: string; agentId: string; onDone?: () => void }) {
  const { client } = useConnection();
  return (
    <Action
      name="retire-agent"
      label="Retire this agent"
      confirm={
        <>
          Retire {props.agentId} from goal {props.goalId}: it stays in the registry with its
          history, is no longer a member, and its open sockets are closed.
        </>
      }
      run={() =>
        client.request(RetireAgentDocument, { goalId: props.goalId, agentId: props.agentId })
      }
      onDone={props.onDone}
    />
  );
}

/** The credentials bound to a goal, each revocable (ADMIN only). */
export function CredentialsPage(props: { goalId: string }) {
  const { client } = useConnection();
  const now = useNow(5000);
  const { data, error, reload } = useLoad(
    () => client.request(CredentialsDocument, { goalId: props.goalId }),
    [client, props.goalId],
  );
  return (
    <Section title="Credentials" id="credentials-title">
      {error && <ErrorNotice error={error} />}
      {!data ? (
        !error && <Loading what="the credentials" />
      ) : (
        <table data-testid="credentials">
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Kind</th>
              <th scope="col">For</th>
              <th scope="col">Status</th>
              <th scope="col">Last used</th>
              <th scope="col">Issued</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {data.credentials.map((credential) => (
              <tr key={credential.id} data-credential={credential.id}>
                <th scope="row">
                  {credential.label || <span class="muted">no label</span>}
                  <span class="id"> {credential.id}</span>
                </th>
                <td>{words(credential.kind)}</td>
                <td>
                  {credential.agentId ??
                    credential.providerId ??
                    (credential.goalIds.join(', ') || '—')}
                </td>
                <td data-status={credential.status}>{words(credential.status)}</td>
                <td>
                  {credential.lastUsedAt ? (
                    <When at={credential.lastUsedAt} now={now} />
                  ) : (
                    <span class="muted">never</span>
                  )}
                </td>
                <td>
                  <When at={credential.createdAt} now={now} />
                </td>
                <td>
                  {
                    <Action
                      name="revoke-credential"
                      label="Revoke"
                      confirm={
                        <>
                          Revoke {credential.label || 'the unlabelled credential'} (
                          {words(credential.kind)}, {credential.id}): every request with it is
                          refused from the next one on, and its open sockets close.
                        </>
                      }
                      run={() => client.request(RevokeCredentialDocument, { id: credential.id })}
                      onDone={reload}
                    />
                  }
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
