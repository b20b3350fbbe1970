import { InboxDocument } from '../../src/client/index.ts';
import { ErrorNotice, Loading, ScopeGapNotice, Section } from './common.tsx';
import { ago, words } from './format.ts';
import { useConnection, useLoad, useNow } from './hooks.ts';

/** The caller's own inbox: only a PEER token has one. Read-only: nothing is marked read. */
export function InboxPage(props: { goalId: string }) {
  const { client } = useConnection();
  const now = useNow(5000);
  const { data, error } = useLoad(
    () => client.request(InboxDocument, { goalId: props.goalId, tail: 50 }),
    [client, props.goalId],
  );
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
              from {message.from} · {ago(message.submittedAt, now)}
              {message.active && <span class="badge">active</span>}
              <p>{message.bodyPreview}</p>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
