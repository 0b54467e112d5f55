// Values as an operator writes them, in a flag, an environment variable or a console form: each
// mistake is one UsageError that names where the value came from (docs/operations.md#exit-codes).
import { isIP } from 'node:net';
import { formatDuration, parseDuration } from './duration.js';
import { UsageError } from './usageError.js';

/** Where a setting came from, so that a bad PORT is blamed on PORT and not on --port. */
export interface Setting {
  text: string;
  source: string;
}

export function parsePort(value: Setting): number {
  if (!/^\d{1,5}$/.test(value.text) || Number(value.text) > 65_535) {
    throw new UsageError(`invalid ${value.source} '${value.text}': give a port number 0-65535`);
  }
  return Number(value.text);
}

// RFC 1123 host names; a last label of digits only is an address (RFC 3696 2), never a name.
const hostLabel = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const hostName = new RegExp(`^(?=.{1,253}$)(?:${hostLabel}\\.)*${hostLabel}$`);

export function parseHost(value: Setting): string {
  const text = value.text;
  if (isIP(text) !== 0) return text;
  if (hostName.test(text) && !/(^|\.)\d+$/.test(text)) return text;
  throw new UsageError(`invalid ${value.source} '${text}': give an IPv4 or IPv6 address or a host name`);
}

/** A duration within bounds; the message says the bounds, so the operator knows what is allowed. */
export function parseBoundedDuration(value: Setting, bounds: { min: number; max: number }): number {
  let ms: number;
  try {
    ms = parseDuration(value.text);
  } catch (error) {
    throw new UsageError(`invalid ${value.source}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (ms < bounds.min || ms > bounds.max) {
    throw new UsageError(`invalid ${value.source} '${value.text}': give ${formatDuration(bounds.min)} to ${formatDuration(bounds.max)}`);
  }
  return ms;
}

export function parseWholeNumber(value: Setting, min: number, max: number): number {
  if (!/^\d{1,16}$/.test(value.text) || Number(value.text) < min || Number(value.text) > max) {
    throw new UsageError(`invalid ${value.source} '${value.text}': give a whole number ${min}-${max}`);
  }
  return Number(value.text);
}
