import { useEffect, useState } from 'preact/hooks';
import { InboxDocument, inboxArrivals } from '../../src/client/index.ts';
import { ErrorNotice, Loading, ScopeGapNotice, Section, When } from './common.tsx';
import { words } from './format.ts';
import { useConnection, useLoad, useNow } from './hooks.ts';

/**
 * The caller's own inbox: only a PEER token has one. Read-only: nothing is marked read.
 * Re-read on each arrival, followed from the cursor of the first read.
 */
export function InboxPage(props: { goalId: string }) {
  const connection = useConnection();
  const { client } = connection;
  const now = useNow(5000);
  const [arrivals, setArrivals] = useState(0);
  const { data, error } = useLoad(
    () => client.request(InboxDocument, { goalId: props.goalId, tail: 50 }),
    [client, props.goalId, arrivals],
  );
  const cursor = data?.inbox.__typename === 'Inbox' ? data.inbox.cursor : undefined;
  // Followed from the first read's cursor: later reads do not restart the stream.
  const [from, setFrom] = useState<string>();
  useEffect(() => {
    if (cursor !== undefined) setFrom((first) => first ?? cursor);
  }, [cursor]);
  useEffect(() => {
    if (from === undefined) return;
    const abort = new AbortController();
    const stream = connection.stream(abort.signal, 'inbox');
    void (async () => {
      try {
        for await (const arrival of inboxArrivals(stream, props.goalId, from)) {
          if (arrival.__typename !== 'InboxMessage')
            return stream.complete('this token has no inbox here');
          setArrivals((n) => n + 1);
        }
      } catch (failure) {
        if (!abort.signal.aborted) stream.fail((failure as Error).message);
      }
    })();
    return () => abort.abort();
  }, [connection, props.goalId, from]);
  if (!data) return error ? <ErrorNotice error={error} /> : <Loading what="the inbox" />;
  const inbox = data.inbox;
  if (inbox.__typename === 'ScopeGap') return <ScopeGapNotice gap={inbox} what="the inbox" />;
  if (inbox.__typename === 'UnknownAgent')
    return <p class="muted">This token has no agent, so it has no inbox: use a peer token.</p>;
  return (
    <Section title={`Inbox of ${inbox.recipient}`} id="inbox-title">
      <p class="muted">
        {inbox.unreadCount} unread · {inbox.unprocessedCount} unprocessed
        {inbox.omittedCount > 0 && ` · ${inbox.omittedCount} older not shown`}
      </p>
      {inbox.messages.length === 0 ? (
        <p class="muted">No messages.</p>
      ) : (
        <ol class="inbox">
          {inbox.messages.map((message) => (
            <li key={message.id} class={message.readAt ? 'read' : 'unread'}>
              <strong>{message.subject}</strong> <span class="badge">{words(message.kind)}</span>{' '}
              from {message.from ?? 'the operator'} · <When at={message.submittedAt} now={now} />
              {message.active && <span class="badge">active</span>}
              <p>{message.bodyPreview}</p>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
