import type { ComponentChildren } from 'preact';
import { ago, exact, href, SCOPE_GAP_WORDS, until } from './format.ts';
import type { Names } from './hooks.ts';

/** A scope gap is a statement about the token, not an empty result: say so. */
export function ScopeGapNotice(props: { gap: { goalId: string; reason: string }; what: string }) {
  return (
    <div class="notice scope-gap" role="status" data-scope-gap={props.gap.reason}>
      <strong>Scope gap:</strong> {props.what} of goal <code>{props.gap.goalId}</code> is not shown
      because {SCOPE_GAP_WORDS[props.gap.reason] ?? props.gap.reason} (
      <code>{props.gap.reason}</code>).
    </div>
  );
}

export function ErrorNotice(props: { error: string }) {
  return (
    <div class="notice error" role="alert">
      {props.error}
    </div>
  );
}

export function Loading(props: { what: string }) {
  return (
    <p class="muted" aria-busy="true">
      Loading {props.what}…
    </p>
  );
}

export function Pill(props: { value: string | null | undefined; title?: string }) {
  const value = props.value ?? 'NO_PRESENCE';
  return (
    <span class={`pill pill-${value.toLowerCase()}`} title={props.title}>
      {value === 'NO_PRESENCE' ? 'no presence' : value.toLowerCase()}
    </span>
  );
}

export function Section(props: { title: string; id: string; children: ComponentChildren }) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** A time as "3 min ago", the exact time on hover; a dash for none. */
export function When(props: { at: string | null | undefined; now: number; prefix?: string }) {
  if (!props.at) return <span class="muted">—</span>;
  return (
    <time dateTime={props.at} title={exact(props.at)}>
      {props.prefix}
      {ago(props.at, props.now)}
    </time>
  );
}

/** A time still to come as "in 12 min", the exact time on hover. */
export function Until(props: { at: string; now: number }) {
  return (
    <time dateTime={props.at} title={exact(props.at)}>
      {until(props.at, props.now)}
    </time>
  );
}

/** A todo by its title, linked, with its id beside it. */
export function TodoLink(props: { goalId: string; todoId: string; names: Names | undefined }) {
  const title = props.names?.todos.get(props.todoId)?.title;
  return (
    <a href={href.todo(props.goalId, props.todoId)} data-todo={props.todoId}>
      {title ?? props.todoId}
      {title && <span class="id"> {props.todoId}</span>}
    </a>
  );
}
