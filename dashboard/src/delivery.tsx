import { useEffect, useState } from 'preact/hooks';
import {
  DeliveryDocument,
  type DeliveryOutcomeEvent,
  type DeliveryQuery,
  deliveryOutcomes,
} from '../../src/client/index.ts';
import { ErrorNotice, Loading, Section } from './common.tsx';
import { href, words } from './format.ts';
import { useConnection } from './hooks.ts';

type Delivery = Extract<DeliveryQuery['delivery'], { __typename: 'Delivery' }>;
type Change = Delivery['history'][number];

/**
 * One delivery and its outcome timeline (submitted → activity observed / stalled / expired /
 * unreachable), followed live until its final change, resumed by outcome version.
 */
export function DeliveryPage(props: { goalId: string; deliveryId: string }) {
  const connection = useConnection();
  const [delivery, setDelivery] = useState<Delivery | null>();
  const [history, setHistory] = useState<Change[]>([]);
  const [error, setError] = useState<string>();

  useEffect(() => {
    const abort = new AbortController();
    void (async () => {
      try {
        const { delivery: found } = await connection.client.request(DeliveryDocument, {
          id: props.deliveryId,
        });
        if (abort.signal.aborted) return;
        if (found.__typename !== 'Delivery') return setDelivery(null);
        setDelivery(found);
        setHistory(found.history);
        const final = found.history.some((change) => change.final);
        if (final) return;
        const stream = deliveryOutcomes(
          connection.stream(abort.signal),
          props.deliveryId,
          found.outcomeVersion,
        );
        for await (const event of stream as AsyncGenerator<DeliveryOutcomeEvent>) {
          if (event.__typename !== 'DeliveryOutcomeChange') return;
          setHistory((changes) => [...changes, event]);
        }
      } catch (failure) {
        if (!abort.signal.aborted) setError((failure as Error).message);
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
        . Activity window {delivery.activityWindowMs} ms, deadline {delivery.deadline}.
      </p>
      <p class="muted">{delivery.bodyPreview}</p>
      <Section title="Outcome timeline" id="timeline-title">
        <ol class="timeline" data-testid="timeline">
          <li data-outcome="SUBMITTED">
            submitted <time dateTime={delivery.submittedAt}>{delivery.submittedAt}</time>
          </li>
          {delivery.receipt?.readAt && <li>read by the recipient {delivery.receipt.readAt}</li>}
          {history
            .filter((change) => change.outcome !== 'SUBMITTED')
            .map((change) => (
              <li key={change.version} data-outcome={change.outcome}>
                {words(change.outcome)}
                {change.reason && ` (${words(change.reason)})`}{' '}
                <time dateTime={change.effectiveAt}>{change.effectiveAt}</time>
                {change.liveness && (
                  <span class="muted"> · recipient {words(change.liveness)}</span>
                )}
                {change.final && <strong> · final</strong>}
              </li>
            ))}
        </ol>
        {delivery.limitations.length > 0 && (
          <p class="muted">Limitations: {delivery.limitations.map(words).join('; ')}.</p>
        )}
      </Section>
    </>
  );
}
