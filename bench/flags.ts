// The benchmark scripts' command-line flags. A flag a script does not know, or a count that is
// not a positive number, ends the script with one line naming it (exit 2), not a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type FlagOptions = NonNullable<ParseArgsConfig['options']>;

export function benchFlags<const T extends FlagOptions>(options: T) {
  try {
    return parseArgs({ options }).values;
  } catch (error) {
    return refuse((error as Error).message);
  }
}

export function positiveNumber(flag: string, text: string): number {
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : refuse(`--${flag} wants a positive number, not '${text}'`);
}

function refuse(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/** The flags both cost accounts take (`npm run bench:cost`, `npm run bench:collection-cost`). */
export interface AccountFlags {
  /** How long each side is measured, in seconds. */
  seconds: number;
  /** How many of the functions with the most self time to list beside the items (0: none). */
  topCount: number;
  /** Another build's dist/src/cli.js, measured in the same run (e.g. the commit before a change). */
  compare: string | undefined;
}

/** The options both cost accounts take, for a script that adds its own beside them. */
export const accountOptions = {
  seconds: { type: 'string', default: '5' },
  top: { type: 'string', default: '0' },
  compare: { type: 'string' },
} as const;

export function readAccountFlags(flags: { seconds: string; top: string; compare?: string | undefined }): AccountFlags {
  const topCount = flags.top === '0' ? 0 : positiveNumber('top', flags.top);
  return { seconds: positiveNumber('seconds', flags.seconds), topCount, compare: flags.compare };
}

export const accountFlags = (): AccountFlags => readAccountFlags(benchFlags(accountOptions));
