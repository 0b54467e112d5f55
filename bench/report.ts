// The figures of one invocation: a table on the terminal, the targets of issue 4 checked
// against them, and the whole record as JSON under bench/results/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, type Measurement } from './measure.js';

export type Profile = 'search10' | 'search1';

export interface ScenarioResult {
  name: string;
  what: string;
  /** Which baseline pair it is compared to: the one with the same request and answer size. */
  profile: Profile;
  answerBytes: number;
  measurement: Measurement;
  peakRssMiB: number;
  anonRssMiB: number;
  notes: Record<string, number | string | boolean>;
}

export interface Baselines {
  uws: Record<Profile, Measurement>;
  fastify: Record<Profile, Measurement>;
  /** The scenario of each profile measured run by run with its baselines. */
  pairedWith: Record<Profile, string>;
}

export interface Target {
  target: string;
  measured: string;
  met: boolean;
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

/**
 * Requests/s over each baseline's. For the scenario run by run with its baselines, the
 * median of the ratios of each run's neighbours: each ratio then sees one state of the
 * machine, where the ratio of medians could pair a fast run with a slow one.
 */
export function ratios(result: ScenarioResult, baselines: Baselines) {
  const over = (baseline: Measurement) =>
    baselines.pairedWith[result.profile] === result.name
      ? median(result.measurement.runs.map((run, index) => run.requestsPerSecond / baseline.runs[index]!.requestsPerSecond))
      : result.measurement.requestsPerSecond / baseline.requestsPerSecond;
  return { vsUws: over(baselines.uws[result.profile]), vsFastify: over(baselines.fastify[result.profile]) };
}

export function table(results: readonly ScenarioResult[], baselines: Baselines): string {
  const rows: string[][] = [['scenario', 'req/s', 'p50 ms', 'p99 ms', 'x uws-static', 'x fastify-static', 'peak RSS MiB', 'notes']];
  for (const profile of ['search10', 'search1'] as const) {
    for (const [name, measurement] of [['uws-static', baselines.uws[profile]], ['fastify-static', baselines.fastify[profile]]] as const) {
      rows.push([`${name} (${profile})`, fixed(measurement.requestsPerSecond), fixed(measurement.p50Ms, 2), fixed(measurement.p99Ms, 2), '', '', '', '']);
    }
  }
  for (const result of results) {
    const { vsUws, vsFastify } = ratios(result, baselines);
    const notes = Object.entries(result.notes).map(([key, value]) => `${key}=${typeof value === 'number' ? fixed(value) : String(value)}`);
    rows.push([
      result.name,
      fixed(result.measurement.requestsPerSecond),
      fixed(result.measurement.p50Ms, 2),
      fixed(result.measurement.p99Ms, 2),
      fixed(vsUws, 2),
      fixed(vsFastify, 2),
      fixed(result.peakRssMiB),
      notes.join(' '),
    ]);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

export function targetTable(targets: readonly Target[]): string {
  return ['| target | measured | met |', '|---|---|---|', ...targets.map((t) => `| ${t.target} | ${t.measured} | ${t.met ? 'yes' : 'NO'} |`)].join('\n');
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** Writes the record to bench/results/<time>.json (relative to the source tree) and returns its path. */
export function writeRecord(record: object): string {
  const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'results');
  mkdirSync(benchDir, { recursive: true });
  const file = join(benchDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { cpu: cpus()[0]?.model, cores: cpus().length, node: process.version, commit: gitCommit() };
  writeFileSync(file, JSON.stringify({ machine, ...record }, null, 2) + '\n');
  return file;
}
