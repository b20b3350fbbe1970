import { useEffect, useState } from 'preact/hooks';
import {
  DeliveryDocument,
  type DeliveryOutcomeEvent,
  type DeliveryQuery,
  deliveryOutcomes,
} from '../../src/client/index.ts';
import { ErrorNotice, Loading, Section, Until, When } from './common.tsx';
import { duration, exact, href, words } from './format.ts';
import { useConnection, useNow } from './hooks.ts';

type Delivery = Extract<DeliveryQuery['delivery'], { __typename: 'Delivery' }>;
type Change = Delivery['history'][number];

/** What a timeline needs of a delivery: the fields every delivery read shares (DeliveryFields). */
export type TimelineDelivery = Pick<Delivery, 'submittedAt' | 'receipt' | 'history'>;

interface Step {
  key: string;
  label: string;
  at: string;
  /** An outcome step (data-outcome) or a receipt (data-receipt). */
  outcome?: string;
  receipt?: string;
  detail?: string;
  final?: boolean;
}

/**
 * A delivery's steps in time order: the submission, every outcome change after it, and every
 * receipt time the API returns (read, processed, and any receipt added later, such as a
 * safe-point notification: each `…At` field of the receipt is a step, named after its field),
 * so a new step shows without a change here.
 */
export function timelineSteps(delivery: TimelineDelivery, history: readonly Change[]): Step[] {
  const steps: Step[] = [
    { key: 'submitted', label: 'submitted', at: delivery.submittedAt, outcome: 'SUBMITTED' },
  ];
  for (const [field, value] of Object.entries(delivery.receipt ?? {})) {
    if (field === 'submittedAt' || !field.endsWith('At') || typeof value !== 'string') continue;
    const name = field.slice(0, -2);
    steps.push({ key: field, label: name, at: value, receipt: name });
  }
  for (const change of history) {
    if (change.version === 0) continue;
    steps.push({
      key: `v${change.version}`,
      label: words(change.outcome),
      at: change.effectiveAt,
      outcome: change.outcome,
      detail: [
        change.reason && words(change.reason),
        change.liveness && `recipient ${words(change.liveness)}`,
      ]
        .filter(Boolean)
        .join(' · '),
      final: change.final,
    });
  }
  // Stable: the submission stays first, and equal times keep the order above.
  return steps.sort((a, b) =>
    a.key === 'submitted' ? -1 : b.key === 'submitted' ? 1 : Date.parse(a.at) - Date.parse(b.at),
  );
}

/** The steps as an ordered list (submitted → … → the outcome), each with its time. */
export function Timeline(props: {
  delivery: TimelineDelivery;
  history?: readonly Change[];
  testId?: string;
  compact?: boolean;
}) {
  const steps = timelineSteps(props.delivery, props.history ?? props.delivery.history);
  const final = steps.some((step) => step.final) || props.delivery.history.some((c) => c.final);
  return (
    <ol
      class={props.compact ? 'timeline compact' : 'timeline'}
      data-testid={props.testId}
      aria-label="Outcome timeline"
    >
      {steps.map((step) => (
        <li key={step.key} data-outcome={step.outcome} data-receipt={step.receipt}>
          <span
            class={step.receipt ? 'step receipt' : `step outcome-${step.outcome?.toLowerCase()}`}
          >
            {step.label}
          </span>{' '}
          <time dateTime={step.at} title={exact(step.at)}>
            {new Date(step.at).toLocaleTimeString()}
          </time>
          {step.detail && <span class="muted"> · {step.detail}</span>}
          {step.final && <strong> · final</strong>}
        </li>
      ))}
      {!final && props.compact && (
        <li class="muted" data-pending>
          no final outcome yet
        </li>
      )}
    </ol>
  );
}

/**
 * One delivery and its outcome timeline (submitted → activity observed / stalled / expired /
 * unreachable), followed live until its final change, resumed by outcome version.
 */
export function DeliveryPage(props: { goalId: string; deliveryId: string }) {
  const connection = useConnection();
  const [delivery, setDelivery] = useState<Delivery | null>();
  const [history, setHistory] = useState<Change[]>([]);
  const [error, setError] = useState<string>();
  const now = useNow();

  useEffect(() => {
    const abort = new AbortController();
    const stream = connection.stream(abort.signal, 'delivery');
    void (async () => {
      try {
        const { delivery: found } = await connection.client.request(DeliveryDocument, {
          id: props.deliveryId,
        });
        if (abort.signal.aborted) return;
        if (found.__typename !== 'Delivery') {
          setDelivery(null);
          return stream.complete('no such delivery for this token');
        }
        setDelivery(found);
        setHistory(found.history);
        if (found.history.some((change) => change.final))
          return stream.complete('the outcome is final');
        for await (const event of deliveryOutcomes(
          stream,
          props.deliveryId,
          found.outcomeVersion,
        ) as AsyncGenerator<DeliveryOutcomeEvent>) {
          if (event.__typename !== 'DeliveryOutcomeChange') break;
          setHistory((changes) => [...changes, event]);
        }
        stream.complete('the outcome is final');
      } catch (failure) {
        if (abort.signal.aborted) return;
        setError((failure as Error).message);
        stream.fail((failure as Error).message);
      }
    })();
    return () => abort.abort();
  }, [connection, props.deliveryId]);

  if (delivery === undefined)
    return error ? <ErrorNotice error={error} /> : <Loading what="the delivery" />;
  if (delivery === null)
    return (
      <p>
        No delivery <code>{props.deliveryId}</code> for this token.
      </p>
    );
  return (
    <>
      {error && <ErrorNotice error={error} />}
      <h2 class="page-title">
        Delivery <code>{delivery.id}</code>: {delivery.subject}
      </h2>
      <p>
        {words(delivery.kind)} from{' '}
        {delivery.from ? (
          <a href={href.agent(props.goalId, delivery.from)}>{delivery.from}</a>
        ) : (
          'the operator'
        )}{' '}
        to <a href={href.agent(props.goalId, delivery.to)}>{delivery.to}</a>
        {delivery.todoId && (
          <>
            {' '}
            about <a href={href.todo(props.goalId, delivery.todoId)}>{delivery.todoId}</a>
          </>
        )}
        . Activity is awaited for {duration(delivery.activityWindowMs)} after submission; the
        deadline{' '}
        {Date.parse(delivery.deadline) > now ? (
          <>
            is <Until at={delivery.deadline} now={now} />
          </>
        ) : (
          <>
            was <When at={delivery.deadline} now={now} />
          </>
        )}
        .
      </p>
      <p class="muted">{delivery.bodyPreview}</p>
      <Section title="Outcome timeline" id="timeline-title">
        <Timeline delivery={delivery} history={history} testId="timeline" />
        {delivery.limitations.length > 0 && (
          <p class="muted">Limitations: {delivery.limitations.map(words).join('; ')}.</p>
        )}
      </Section>
    </>
  );
}
