// How long this invocation measures: `npm run bench` (5 runs) or `npm run bench -- --quick`
// (1 run, for a check that everything still runs; its figures are too short to quote).
import { benchFlags } from './flags.js';
import type { Timing } from './measure.js';

const flags = benchFlags({ quick: { type: 'boolean', default: false } });

export const quick = flags.quick;
export const timing: Timing = quick ? { warmupSeconds: 1, runs: 1, runSeconds: 2 } : { warmupSeconds: 2, runs: 5, runSeconds: 2 };
/** Collections are counted over this many seconds, after as many of JIT warm-up. */
export const collectSeconds = quick ? 2 : 3;
