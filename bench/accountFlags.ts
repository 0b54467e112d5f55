// The flags both cost accounts take (`npm run bench:cost`, `npm run bench:collection-cost`;
// bench/README.md#cost-account).
import { parseArgs } from 'node:util';

export interface AccountFlags {
  /** How long each side is measured, in seconds. */
  seconds: number;
  /** How many of the functions with the most self time to list beside the items (0: none). */
  topCount: number;
  /** Another build's dist/src/cli.js, measured in the same run (e.g. the commit before a change). */
  compare: string | undefined;
}

export function accountFlags(): AccountFlags {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '5' }, top: { type: 'string', default: '0' }, compare: { type: 'string' } },
  });
  return { seconds: Number(values.seconds), topCount: Number(values.top), compare: values.compare };
}
