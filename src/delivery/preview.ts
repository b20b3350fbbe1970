import { BIDI_CONTROL, redactSecrets } from '../core/privacy.ts';

/**
 * What a delivery shows of its body as evidence: a short, one-line preview that never holds
 * a credential or an absolute local path (the ledger's privacy boundary), nor a control or
 * bidi character (the body itself keeps them: its recipient gets it as sent).
 */
export const PREVIEW_CHARS = 120;

const SPACING = new RegExp(String.raw`(?:\s|\p{Cc}|${BIDI_CONTROL.source})+`, 'gu');

/** The body redacted first (a cut must not split a secret past recognition), then flattened and cut. */
export function bodyPreview(body: string): string {
  const flat = redactSecrets(body).text.replace(SPACING, ' ').trim();
  return flat.length <= PREVIEW_CHARS ? flat : `${flat.slice(0, PREVIEW_CHARS - 1)}…`;
}
