import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { GoalsDocument, WhoamiDocument } from '../../src/client/index.ts';
import { AgentPage } from './agent.tsx';
import { ErrorNotice, Loading } from './common.tsx';
import { DeliveryPage } from './delivery.tsx';
import { href, parseRoute, type Route } from './format.ts';
import { ConnectionContext, useConnection, useLoad } from './hooks.ts';
import { InboxPage } from './inbox.tsx';
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

type LinkState =
  | { state: 'idle' }
  | { state: 'connected' }
  | { state: 'reconnecting'; reason: string; attempt: number };

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const [link, setLink] = useState<LinkState>({ state: 'idle' });
  const connection = useMemo<Connection | null>(
    () =>
      session &&
      connect(session, (event) =>
        setLink(
          event.state === 'connected'
            ? { state: 'connected' }
            : { state: 'reconnecting', reason: event.reason, attempt: event.attempt },
        ),
      ),
    [session],
  );
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
            setLink({ state: 'idle' });
            setSession(next);
          }}
          onForget={() => {
            forgetSession();
            setSession(null);
          }}
        />
        <LinkPill link={link} connected={connection !== null} />
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

function LinkPill(props: { link: LinkState; connected: boolean }) {
  const { link } = props;
  const text = !props.connected
    ? 'not connected'
    : link.state === 'connected'
      ? 'live'
      : link.state === 'reconnecting'
        ? `reconnecting (attempt ${link.attempt}: ${link.reason})`
        : 'connected (this view has no live stream)';
  return (
    <output
      class={`link link-${props.connected ? link.state : 'none'}`}
      data-testid="link"
      aria-live="polite"
    >
      {text}
    </output>
  );
}

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
        if (token.trim()) props.onConnect({ url: url.trim(), token: token.trim() });
        setToken('');
      }}
    >
      <label>
        Gateway{' '}
        <input
          name="url"
          type="url"
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
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
  if (route.view === 'home') {
    if (!me.data)
      return me.error ? <ErrorNotice error={me.error} /> : <Loading what="your token" />;
    return <GoalPicker goalIds={caller?.goalIds ?? []} admin={caller?.kind === 'ADMIN'} />;
  }
  const goalId = route.goalId;
  return (
    <>
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
        {caller && (
          <span class="muted">
            as {caller.kind.toLowerCase()}
            {caller.agentId ? ` ${caller.agentId}` : ''}
          </span>
        )}
      </nav>
      {route.view === 'goal' && <Overview goalId={goalId} />}
      {route.view === 'agent' && <AgentPage goalId={goalId} agentId={route.agentId} />}
      {route.view === 'work' && <WorkPage goalId={goalId} />}
      {route.view === 'todo' && <TodoPage goalId={goalId} todoId={route.todoId} />}
      {route.view === 'inbox' && <InboxPage goalId={goalId} />}
      {route.view === 'delivery' && <DeliveryPage goalId={goalId} deliveryId={route.deliveryId} />}
    </>
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
