// The targets of the current round, checked against the figures of this invocation, as the
// table `npm run bench` ends with (bench/README.md#the-targets).
import type { CollectionFigures } from './collecting.js';
import { markdownTable, ratioTo, type Baselines, type ScenarioResult } from './report.js';
import type { ThreadsFigures } from './threads.js';

export interface Figures {
  results: ReadonlyMap<string, ScenarioResult>;
  baselines: Baselines;
  collection: CollectionFigures;
  /** Null when the build has no `serve --threads`. */
  threads: ThreadsFigures | null;
  millionStartupMs: number;
}

interface Check {
  /** What is compared, named in the verdict when it is missed. */
  label: string;
  measured: string;
  met: boolean;
}

interface TargetRow {
  scenario: string;
  target: string;
  measured: string;
  verdict: string;
}

const ratio = (value: number) => `${value.toFixed(2)} x`;
const whole = (value: number) => Math.round(value).toLocaleString('en-US');
const perSecond = (value: number) => `${whole(value)}/s`;
const mib = (value: number) => `${value.toFixed(0)} MiB`;

function checked(scenario: string, target: string, checks: readonly Check[], context = ''): TargetRow {
  const missed = checks.filter((check) => !check.met).map((check) => check.label);
  return {
    scenario,
    target,
    measured: [...checks.map((check) => `${check.label} ${check.measured}`), ...(context ? [context] : [])].join('; '),
    verdict: missed.length === 0 ? 'met' : `NOT met: ${missed.join(', ')}`,
  };
}

const p99Check = (result: ScenarioResult): Check => ({
  label: 'p99',
  measured: `${result.measurement.p99Ms.toFixed(2)} ms`,
  met: result.measurement.p99Ms <= 5,
});
const requestsOf = (result: ScenarioResult) => `${whole(result.measurement.requestsPerSecond)} req/s`;

function threadsRow(threads: ThreadsFigures | null): TargetRow {
  const scenario = '`--threads 2` vs `--threads 1`, server on both cores';
  if (!threads) return { scenario, target: 'reported', measured: 'n/a (no --threads in this build)', verdict: 'n/a' };
  const { one, two } = threads;
  return {
    scenario,
    target: 'reported',
    measured: `${ratio(threads.ratio)} (${requestsOf(two)} vs ${requestsOf(one)}; p99 ${two.measurement.p99Ms.toFixed(2)} vs ${one.measurement.p99Ms.toFixed(2)} ms)`,
    verdict: 'reported (see note)',
  };
}

export function targetRows(figures: Figures): TargetRow[] {
  const { results, baselines, collection } = figures;
  const warm = results.get('search-10-warm')!;
  const cold = results.get('search-10-cold-1M')!;
  const collecting = collection.result;
  const vs = (result: ScenarioResult, name: 'spec-floor' | 'uws-static' | 'fastify-static') => ratioTo(result, baselines, name);
  const overWarm = collecting.measurement.requestsPerSecond / warm.measurement.requestsPerSecond;
  return [
    checked(
      'warm 10-resource search, `--threads 1`',
      '>= 0.8 x spec floor, >= 2 x fastify-static, p99 <= 5 ms',
      [
        { label: 'x spec floor', measured: ratio(vs(warm, 'spec-floor')), met: vs(warm, 'spec-floor') >= 0.8 },
        { label: 'x fastify-static', measured: ratio(vs(warm, 'fastify-static')), met: vs(warm, 'fastify-static') >= 2 },
        p99Check(warm),
      ],
      requestsOf(warm),
    ),
    checked(
      'the same search while collecting 200k due resources',
      '>= 0.9 x the warm search of the same run, p99 <= 5 ms',
      [{ label: 'x warm search', measured: ratio(overWarm), met: overWarm >= 0.9 }, p99Check(collecting)],
      requestsOf(collecting),
    ),
    checked('collection on the resource thread, github / x', '>= 5,000 resources/s each', [
      { label: 'github', measured: perSecond(collection.githubPerSecond), met: collection.githubPerSecond >= 5000 },
      { label: 'x', measured: perSecond(collection.xPerSecond), met: collection.xPerSecond >= 5000 },
    ]),
    checked(
      '1M resources, cold 10-resource search',
      '>= 0.3 x uws-static; anonymous RSS <= 256 MiB (page cache reported apart)',
      [
        { label: 'x uws-static', measured: ratio(vs(cold, 'uws-static')), met: vs(cold, 'uws-static') >= 0.3 },
        { label: 'peak anonymous RSS', measured: mib(cold.memory.peakAnonMiB), met: cold.memory.peakAnonMiB <= 256 },
      ],
      `page cache (file-backed RSS) peak ${mib(cold.memory.peakFileMiB)}`,
    ),
    threadsRow(figures.threads),
  ];
}

/** Targets of earlier rounds that still hold. */
export function standingRows(figures: Figures): TargetRow[] {
  const rate = (name: string) => figures.results.get(name)!.measurement.requestsPerSecond;
  const hanging = rate('search-10-warm+hanging') / rate('search-10-warm');
  return [
    checked('1M resources, start-up to listening', '<= 2 s', [
      { label: 'start-up', measured: `${(figures.millionStartupMs / 1000).toFixed(2)} s`, met: figures.millionStartupMs <= 2000 },
    ]),
    checked('warm search while every platform hangs', '>= 0.9 x healthy', [
      { label: 'x healthy', measured: ratio(hanging), met: hanging >= 0.9 },
    ]),
  ];
}

export const targetTable = (rows: readonly TargetRow[]) =>
  markdownTable([
    ['scenario', 'target', 'measured', 'verdict'],
    ...rows.map((row) => [row.scenario, row.target, row.measured, row.verdict]),
  ]);

export const threadsNote =
  'note on `--threads 2`: this machine has 2 cores and wrk needs one, so the second search thread shares ' +
  "wrk's core. The ratio shows that two threads share the port and answer the same searches under load, " +
  'and what a second thread adds while it competes with the load generator for its core: a lower bound. ' +
  'It cannot show how searches scale with cores the service has to itself; that needs wrk on a third core ' +
  'or another machine.';
