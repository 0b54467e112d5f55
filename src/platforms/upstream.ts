// Shared steps of every collector: parse a body against the schema of the fields it reads,
// read a platform's rate-limit reset, and turn anything thrown into a `failed` outcome.
import type { TSchema, Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { upstreamLimits } from '../config.js';
import { failed, type CollectionOutcome } from '../model.js';
import { HostRefused } from './hostSafety/hostRefused.js';
import { header, type UpstreamResponse } from './http.js';

export interface BodyParser<T> {
  /** The parsed body, or undefined when it is not JSON or lacks a field the collector reads. */
  parse(text: string): T | undefined;
}

export function jsonBody<S extends TSchema>(schema: S): BodyParser<Static<S>> {
  const validator = Compile(schema);
  return {
    parse(text) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return undefined;
      }
      return validator.Check(value) ? (value as Static<S>) : undefined;
    },
  };
}

/**
 * When a rate-limited platform may be asked again: `Retry-After` (seconds or HTTP date,
 * RFC 9110 10.2.3), else the platform's own reset header in Unix seconds or as a date
 * (Mastodon's `X-RateLimit-Reset` is an ISO 8601 time).
 */
export function retryAtOf(response: UpstreamResponse, now: number, resetHeader?: string): number {
  const retryAfter = header(response, 'retry-after');
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return now + seconds * 1000;
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(now, date);
  }
  const resetText = resetHeader === undefined ? undefined : header(response, resetHeader);
  const reset = Number(resetText);
  if (resetText !== undefined && resetText.trim() !== '' && Number.isFinite(reset) && reset > 0) return Math.max(now, reset * 1000);
  const resetDate = resetText === undefined ? Number.NaN : Date.parse(resetText);
  if (Number.isFinite(resetDate)) return Math.max(now, resetDate);
  return now + upstreamLimits.defaultPauseMs;
}

/**
 * Runs one collection step; a throw (network error, abort, a host the guard refused) becomes
 * `failed`, never `notFound`. A refusal's message is its reason as it stands: `host refused: ...`.
 */
export async function settle(step: () => Promise<CollectionOutcome>): Promise<CollectionOutcome> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof HostRefused) return failed(error.message);
    return failed(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  }
}

export const unexpectedStatus = (response: UpstreamResponse) => failed(`unexpected upstream status ${response.status}`);
export const unparsable = failed('upstream body does not match the expected shape');

/**
 * The texts of the `<script>` elements whose opening tag contains `attribute` (e.g.
 * `id="__UNIVERSAL_DATA_FOR_REHYDRATION__"`), for pages that embed their data as JSON.
 * Embedded JSON escapes "</", so the first closing tag ends the element.
 */
export function* scriptTexts(html: string, attribute: string): Generator<string> {
  let from = 0;
  for (;;) {
    const open = html.indexOf('<script', from);
    if (open < 0) return;
    const tagEnd = html.indexOf('>', open);
    const close = html.indexOf('</script>', tagEnd);
    if (tagEnd < 0 || close < 0) return;
    if (html.slice(open, tagEnd).includes(attribute)) yield html.slice(tagEnd + 1, close);
    from = close;
  }
}

/** The first of `scriptTexts`. */
export function scriptText(html: string, attribute: string): string | undefined {
  for (const text of scriptTexts(html, attribute)) return text;
  return undefined;
}
