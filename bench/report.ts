// The figures of one invocation: every scenario and baseline in one table, and the whole
// record as JSON under bench/results/ (the targets are checked in targets.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MemoryPeaks } from './memory.js';
import { pairedRatio, type Measurement } from './measure.js';

export type Profile = 'search10' | 'search1';

export interface ScenarioResult {
  name: string;
  what: string;
  /** Which baselines it is compared to: the ones with the same request and answer size. */
  profile: Profile;
  answerBytes: number;
  measurement: Measurement;
  memory: MemoryPeaks;
  notes: Record<string, number | string | boolean>;
}

export const baselineNames = ['spec-floor', 'uws-static', 'fastify-static'] as const;
export type BaselineName = (typeof baselineNames)[number];

export interface Baselines {
  measured: Record<Profile, Record<BaselineName, Measurement>>;
  /** The scenario of each profile measured run by run with its baselines. */
  pairedWith: Record<Profile, string>;
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

/**
 * Requests/s over a baseline's. For the scenario run by run with its baselines, the median
 * of the ratios of each run's neighbours (measure.ts, pairedRatio); for the others, which
 * ran at another time, the ratio of the medians.
 */
export function ratioTo(result: ScenarioResult, baselines: Baselines, name: BaselineName): number {
  const baseline = baselines.measured[result.profile][name];
  return baselines.pairedWith[result.profile] === result.name
    ? pairedRatio(result.measurement, baseline)
    : result.measurement.requestsPerSecond / baseline.requestsPerSecond;
}

export function table(results: readonly ScenarioResult[], baselines: Baselines): string {
  const ratioColumns = baselineNames.map((name) => `x ${name}`);
  const rows: string[][] = [['scenario', 'req/s', 'p50 ms', 'p99 ms', ...ratioColumns, 'peak anon MiB', 'peak file MiB', 'notes']];
  const blank = baselineNames.map(() => '');
  for (const profile of ['search10', 'search1'] as const) {
    for (const name of baselineNames) {
      const measurement = baselines.measured[profile][name];
      rows.push([
        `${name} (${profile})`,
        fixed(measurement.requestsPerSecond),
        fixed(measurement.p50Ms, 2),
        fixed(measurement.p99Ms, 2),
        ...blank,
        '',
        '',
        '',
      ]);
    }
  }
  for (const result of results) {
    const notes = Object.entries(result.notes).map(([key, value]) => `${key}=${typeof value === 'number' ? fixed(value) : String(value)}`);
    rows.push([
      result.name,
      fixed(result.measurement.requestsPerSecond),
      fixed(result.measurement.p50Ms, 2),
      fixed(result.measurement.p99Ms, 2),
      ...baselineNames.map((name) => fixed(ratioTo(result, baselines, name), 2)),
      fixed(result.memory.peakAnonMiB),
      fixed(result.memory.peakFileMiB),
      notes.join(' '),
    ]);
  }
  return markdownTable(rows);
}

/** Rows (the first is the header) as a Markdown table with aligned columns. */
export function markdownTable(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: readonly string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/**
 * Writes the record to bench/results/<time>.json (relative to the source tree), or
 * <label>-<time>.json for a benchmark run apart, and returns its path.
 */
export function writeRecord(record: object, label?: string): string {
  const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench', 'results');
  mkdirSync(benchDir, { recursive: true });
  const file = join(benchDir, `${label ? `${label}-` : ''}${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { cpu: cpus()[0]?.model, cores: cpus().length, node: process.version, commit: gitCommit() };
  writeFileSync(file, `${JSON.stringify({ machine, ...record }, null, 2)}\n`);
  return file;
}
