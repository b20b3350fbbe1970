import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { gatewayUrls } from '../../src/client/gateways.ts';
import { GoalsDocument, WhoamiDocument } from '../../src/client/index.ts';
import { ActionLog, ActionLogContext, CredentialsPage, type Done } from './actions.tsx';
import { AgentPage } from './agent.tsx';
import { ErrorNotice, Loading } from './common.tsx';
import { DeliveryPage } from './delivery.tsx';
import { href, parseRoute, type Route } from './format.ts';
import { ConnectionContext, useConnection, useLoad } from './hooks.ts';
import { InboxPage } from './inbox.tsx';
import type { StreamStatus } from './live.ts';
import { Overview } from './overview.tsx';
import {
  type Connection,
  connect,
  forgetSession,
  loadSession,
  type Session,
  sameOriginUrl,
  saveSession,
} from './session.ts';
import { TodoPage, WorkPage } from './work.tsx';

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', update);
    // The hash may have moved between the first render and this listener.
    update();
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const connection = useMemo<Connection | null>(() => session && connect(session), [session]);
  const route = useRoute();
  const header = useRef<HTMLElement>(null);
  // Sticky table headings sit under the sticky page header, whose height wraps with the width.
  useEffect(() => {
    const top = header.current;
    if (!top) return;
    const observer = new ResizeObserver(() =>
      document.documentElement.style.setProperty('--top-height', `${top.offsetHeight}px`),
    );
    observer.observe(top);
    return () => observer.disconnect();
  }, []);

  return (
    <>
      <header class="top" ref={header}>
        <h1>
          <a href="#/">Switchboard</a>
        </h1>
        <ConnectForm
          session={session}
          onConnect={(next) => {
            saveSession(next);
            setSession(next);
          }}
          onForget={() => {
            forgetSession();
            setSession(null);
          }}
        />
        <LinkPill connection={connection} />
      </header>
      <main>
        {connection ? (
          <ConnectionContext.Provider value={connection}>
            <Routed route={route} />
          </ConnectionContext.Provider>
        ) : (
          <p>Enter the gateway URL and a token (admin, peer or provider) to begin.</p>
        )}
      </main>
    </>
  );
}

/**
 * What the page's streams are doing: `live` only while every one of them is connected. With
 * several gateways it names the one they are on (`live on 10.0.0.12:4000`), and the one a
 * reconnecting stream lost.
 */
function LinkPill(props: { connection: Connection | null }) {
  const { connection } = props;
  const [, setRevision] = useState(0);
  useEffect(
    () => connection?.live.subscribe(() => setRevision(connection.live.revision)),
    [connection],
  );
  const streams = connection?.live.snapshot() ?? [];
  const several = connection ? gatewayUrls(connection.session.url).length > 1 : false;
  const find = (state: StreamStatus['state']) =>
    streams.find((stream) => stream.status.state === state)?.status;
  const down = find('down');
  const reconnecting = find('reconnecting');
  const complete = find('complete');
  const on = [
    ...new Set(
      streams.flatMap(({ status }) => (status.state === 'live' ? [gatewayName(status.url)] : [])),
    ),
  ].join(', ');
  const [state, text] = !connection
    ? ['none', 'not connected']
    : down?.state === 'down'
      ? ['down', `down since ${clock(down.since)}: ${down.reason}`]
      : reconnecting?.state === 'reconnecting'
        ? [
            'reconnecting',
            `reconnecting since ${clock(reconnecting.since)} (attempt ${reconnecting.attempt}${several ? ` on ${gatewayName(reconnecting.url)}` : ''}: ${reconnecting.reason})`,
          ]
        : find('connecting')
          ? ['connecting', 'connecting…']
          : find('live')
            ? ['connected', several ? `live on ${on}` : 'live']
            : complete?.state === 'complete'
              ? ['complete', `up to date: ${complete.reason}`]
              : ['idle', 'connected (nothing on this page changes live)'];
  return (
    <output
      class={`link link-${state}`}
      data-testid="link"
      data-streams={streams.map((stream) => `${stream.name}:${stream.status.state}`).join(' ')}
      data-gateway={state === 'connected' ? on : undefined}
      aria-live="polite"
    >
      {text}
    </output>
  );
}

/** An absolute http(s) URL: what each gateway in the form must be. */
const parses = (url: string) => {
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
};

/** A gateway as the pill names it: its host and port (`/graphql` is the same on every one). */
function gatewayName(url: string): string {
  try {
    return new URL(url, location.href).host;
  } catch {
    return url;
  }
}

/** "14:03:07", the local time of `at` (epoch ms). */
const clock = (at: number) => new Date(at).toLocaleTimeString();

function ConnectForm(props: {
  session: Session | null;
  onConnect: (session: Session) => void;
  onForget: () => void;
}) {
  const [url, setUrl] = useState(props.session?.url ?? sameOriginUrl());
  const [token, setToken] = useState('');
  return (
    <form
      class="connect"
      aria-label="Sign in"
      onSubmit={(event) => {
        event.preventDefault();
        const input = event.currentTarget.elements.namedItem('url') as HTMLInputElement;
        const urls = gatewayUrls(url);
        const bad = urls.find((u) => !parses(u));
        input.setCustomValidity(bad ? `not a URL: ${bad}` : '');
        if (bad) return void input.reportValidity();
        if (token.trim()) props.onConnect({ url: urls.join(','), token: token.trim() });
        setToken('');
      }}
    >
      <label>
        Gateway{' '}
        <input
          name="url"
          type="text"
          value={url}
          title="The gateway's GraphQL URL; several gateways of one deployment separated by commas: the page moves to the next when one fails"
          onInput={(e) => {
            e.currentTarget.setCustomValidity('');
            setUrl(e.currentTarget.value);
          }}
          required
        />
      </label>
      <label>
        Token{' '}
        <input
          name="token"
          type="password"
          autocomplete="off"
          value={token}
          placeholder={props.session ? 'connected (kept for this tab only)' : 'bearer token'}
          onInput={(e) => setToken(e.currentTarget.value)}
        />
      </label>
      <button type="submit">Connect</button>
      {props.session && (
        <button type="button" onClick={props.onForget}>
          Forget token
        </button>
      )}
    </form>
  );
}

function Routed(props: { route: Route }) {
  const { route } = props;
  const { client } = useConnection();
  // Read in parallel with the view's own queries: a goal view does not wait for it.
  const me = useLoad(() => client.request(WhoamiDocument), [client]);
  const caller = me.data?.me;
  const [done, setDone] = useState<Done>();
  if (route.view === 'home') {
    if (!me.data)
      return me.error ? <ErrorNotice error={me.error} /> : <Loading what="your token" />;
    return <GoalPicker goalIds={caller?.goalIds ?? []} admin={caller?.kind === 'ADMIN'} />;
  }
  const goalId = route.goalId;
  return (
    <ActionLogContext.Provider value={setDone}>
      <nav class="tabs" aria-label="Goal views">
        <span>
          Goal <code>{goalId}</code>
        </span>
        <a href={href.goal(goalId)} aria-current={route.view === 'goal' ? 'page' : undefined}>
          Attention &amp; directory
        </a>
        <a href={href.work(goalId)} aria-current={route.view === 'work' ? 'page' : undefined}>
          Work graph
        </a>
        {caller?.kind === 'PEER' && (
          <a href={href.inbox(goalId)} aria-current={route.view === 'inbox' ? 'page' : undefined}>
            Inbox
          </a>
        )}
        {caller && caller.kind !== 'PEER' && (
          <a
            href={href.credentials(goalId)}
            aria-current={route.view === 'credentials' ? 'page' : undefined}
          >
            Credentials
          </a>
        )}
        {caller && (
          <span class="muted">
            as {caller.kind.toLowerCase()}
            {caller.agentId ? ` ${caller.agentId}` : ''}
          </span>
        )}
      </nav>
      <ActionLog done={done} onClose={() => setDone(undefined)} />
      {route.view === 'goal' && (
        <Overview
          goalId={goalId}
          operator={caller?.kind === 'ADMIN' || caller?.kind === 'STEWARD'}
        />
      )}
      {route.view === 'agent' && <AgentPage goalId={goalId} agentId={route.agentId} />}
      {route.view === 'work' && <WorkPage goalId={goalId} />}
      {route.view === 'todo' && <TodoPage goalId={goalId} todoId={route.todoId} />}
      {route.view === 'inbox' && <InboxPage goalId={goalId} />}
      {route.view === 'delivery' && <DeliveryPage goalId={goalId} deliveryId={route.deliveryId} />}
      {route.view === 'credentials' && <CredentialsPage goalId={goalId} />}
    </ActionLogContext.Provider>
  );
}

function GoalPicker(props: { goalIds: readonly string[]; admin: boolean }) {
  const { client } = useConnection();
  const goals = useLoad(
    () => (props.admin ? client.request(GoalsDocument).then((d) => d.goals) : Promise.resolve([])),
    [client, props.admin],
  );
  const [typed, setTyped] = useState('');
  const listed = props.admin
    ? (goals.data ?? []).map((g) => ({ id: g.id, title: g.title }))
    : props.goalIds.map((id) => ({ id, title: '' }));
  return (
    <section aria-labelledby="goals-title">
      <h2 id="goals-title">Goals</h2>
      {goals.error && <ErrorNotice error={goals.error} />}
      <ul>
        {listed.map((goal) => (
          <li key={goal.id}>
            <a href={href.goal(goal.id)}>{goal.id}</a> {goal.title}
          </li>
        ))}
      </ul>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (typed.trim()) location.hash = href.goal(typed.trim());
        }}
      >
        <label>
          Open goal <input value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
        </label>{' '}
        <button type="submit">Open</button>
      </form>
    </section>
  );
}
