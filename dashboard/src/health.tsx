import type { ComponentChildren } from 'preact';
import {
  DeliveryHealthDocument,
  type DeliveryHealthQuery,
  type DirectoryQuery,
} from '../../src/client/index.ts';
import { ErrorNotice, Loading, Section, When } from './common.tsx';
import { COVERAGE_GAP_WORDS, href } from './format.ts';
import { useConnection, useLoad, useNow } from './hooks.ts';

type Health = DeliveryHealthQuery['deliveryHealth'];
type Alert = Health['stalled'][number];
type AttentionRow = DirectoryQuery['directory']['rollup'][number];

/**
 * How often the panel checks again while open: a delivery stalls or expires by the clock
 * alone, and the doorbell's state belongs to the gateway, so neither arrives on a stream.
 */
export const HEALTH_RECHECK_MS = 5000;

/**
 * Delivery health at the top of a goal: the oldest unread message per agent, messages offered
 * and not taken, deliveries stalled now or expired in the last hour, providers not reporting
 * with the agents they covered, and the gateway's doorbell. Each row links to what is behind
 * it; empty only when all is well, and then it says what it checked. Re-read whenever the
 * directory is (each change of presence or work) and every HEALTH_RECHECK_MS.
 */
export function HealthPanel(props: {
  goalId: string;
  /** When the directory was last read: it is re-read on every change of presence or work. */
  directoryAt: string;
  rollup: readonly AttentionRow[];
  providers: number;
}) {
  const { client } = useConnection();
  const now = useNow();
  const recheck = Math.floor(now / HEALTH_RECHECK_MS);
  const { data, error } = useLoad(
    () => client.request(DeliveryHealthDocument, { goalId: props.goalId }),
    [client, props.goalId, props.directoryAt, recheck],
  );
  const health = data?.deliveryHealth;
  const silent = props.rollup.filter((row) => row.reason === 'PROVIDER_SILENT');
  let body: ComponentChildren;
  if (!health) body = error ? <ErrorNotice error={error} /> : <Loading what="delivery health" />;
  else if (health.scopeGap) body = null;
  else {
    const { goalId } = props;
    const link = (row: Alert) => (
      <a href={href.delivery(goalId, row.deliveryId)} data-delivery={row.deliveryId}>
        “{row.subject}”
      </a>
    );
    const agent = (agentId: string) => <a href={href.agent(goalId, agentId)}>{agentId}</a>;
    const items = [
      ...(health.doorbell.listening
        ? []
        : [
            <li key="doorbell" data-health="doorbell" class="bad">
              The gateway’s doorbell is deaf
              {health.doorbell.since && (
                <>
                  {' '}
                  <When at={health.doorbell.since} now={now} prefix="since " />
                </>
              )}
              : {health.doorbell.reason}. Streams, waits and deliveries catch up on a timer (late,
              not lost); see <a href="/readyz">/readyz</a>.
            </li>,
          ]),
      ...silent.map((row) => (
        <li key={`silent:${row.provider}`} data-health="silent" class="bad">
          Provider <code>{row.provider}</code> is not reporting
          {row.since && (
            <>
              {' '}
              <When at={row.since} now={now} prefix="since " />
            </>
          )}
          {row.coverageGap && <> ({COVERAGE_GAP_WORDS[row.coverageGap] ?? row.coverageGap})</>}; it
          covered{' '}
          {row.agentIds.map((agentId, i) => (
            <span key={agentId}>
              {i > 0 && ', '}
              {agent(agentId)}
            </span>
          ))}
          .
        </li>
      )),
      ...health.stalled.map((row) => (
        <li key={`stalled:${row.deliveryId}`} data-health="stalled" class="bad">
          {link(row)} to {agent(row.to)} stalled <When at={row.since} now={now} />: no activity seen
          within its window.
        </li>
      )),
      ...health.expired.map((row) => (
        <li key={`expired:${row.deliveryId}`} data-health="expired" class="bad">
          {link(row)} to {agent(row.to)} expired <When at={row.since} now={now} />.
        </li>
      )),
      ...health.offeredNotTaken.map((row) => (
        <li key={`offered:${row.deliveryId}`} data-health="offered">
          {link(row)} was offered to {agent(row.to)} <When at={row.since} now={now} /> and not
          taken.
        </li>
      )),
      ...health.unread.map((row) => (
        <li key={`unread:${row.agentId}`} data-health="unread" data-agent={row.agentId}>
          {agent(row.agentId)} has {row.count} unread; the oldest, {link(row.oldest)}, was sent{' '}
          <When at={row.oldest.since} now={now} />.
        </li>
      )),
    ];
    body =
      items.length > 0 ? (
        <ul class="health" data-testid="health-rows">
          {items}
        </ul>
      ) : (
        <p class="muted" data-testid="health-ok">
          All is well: no unread messages, none offered and not taken, no delivery stalled or
          expired in the last hour, {props.providers}{' '}
          {props.providers === 1 ? 'provider' : 'providers'} reporting, and the doorbell listening.
        </p>
      );
  }
  return (
    <Section title="Delivery health" id="health-title">
      <div data-testid="health">
        {body}
        {health && !health.scopeGap && (
          <p class="muted">
            Checked <When at={health.checkedAt} now={now} />.
          </p>
        )}
      </div>
    </Section>
  );
}
