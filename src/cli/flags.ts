// Command-line flags and the values they take. Every mistake becomes one UsageError line
// (docs/operations.md#exit-codes), never parseArgs' multi-line messages or a stack.
import { isIP } from 'node:net';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseDuration } from '../duration.js';
import { errorCode, UsageError } from './usageError.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs in strict mode, its errors rewritten as one line that names the command. */
export function parseFlags<T extends Options>(command: string, args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(flagProblem(command, error));
  }
}

function flagProblem(command: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = errorCode(error);
  const flag = /'(-[^' <]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return `unknown flag '${flag}' for ${command}; see datapoints help ${command.split(' ')[0]}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // "argument is ambiguous": the next word starts with '-', e.g. a negative number.
    if (message.includes('ambiguous')) return `${flag} needs a value; a value starting with '-' is written ${flag}=VALUE`;
    if (message.includes('argument missing')) return `${flag} needs a value`;
    return `${flag} takes no value`;
  }
  return message.split('\n')[0]!;
}

/** Where a setting came from, so that a bad PORT is blamed on PORT and not on --port. */
export interface Setting {
  text: string;
  source: string;
}

export function setting(flagValue: string | undefined, flag: string, envName?: string): Setting | undefined {
  if (flagValue !== undefined) return { text: flagValue, source: `--${flag}` };
  const fromEnv = envName === undefined ? undefined : process.env[envName];
  return fromEnv === undefined || fromEnv === '' ? undefined : { text: fromEnv, source: envName! };
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

/** The largest unit that writes the duration exactly: 3600000 -> 1h, 90000 -> 90s. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

export function noMorePositionals(command: string, positionals: string[], expected: number): void {
  if (positionals.length > expected) throw new UsageError(`unexpected argument '${positionals[expected]}' for ${command}`);
}
