import type { ComponentChildren } from 'preact';
import { SCOPE_GAP_WORDS } from './format.ts';

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
