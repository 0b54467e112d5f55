// `datapoints serve` and `datapoints emulator` (docs/operations.md#commands; docs/operations.md).
import { availableParallelism } from 'node:os';
import pino from 'pino';
import { type ClusterSettings, type NodeRole, nodeRoles } from '../cluster/clusterSettings.js';
import {
  defaultPolicy,
  flagBounds,
  type HistoryPolicy,
  historyBounds,
  historyDefaults,
  limits,
  parentCheckMs,
  serveDefaults,
} from '../config.js';
import { parseCorsOrigins, type CorsOrigins } from '../http/cors.js';
import { describeRefusal, guardPort } from '../http/portGuard.js';
import { createLogger, logFormatNamed, logFormats, type LogFormat, type Logger } from '../log.js';
import { type MetricsAddress, parseMetricsAddress } from '../metrics/metricsAddress.js';
import { type HostAllowList, parseAllowList } from '../platforms/hostSafety/allowList.js';
import { dataDirSetting, firstLine, openDataStore } from './dataStore.js';
import { isUnheldCommitFailure } from '../store/guardedWrites.js';
import { noMorePositionals, parseFlags, setting } from './flags.js';
import { parseBoundedDuration, parseHost, parsePort, parseWholeNumber, type Setting } from '../operatorInput.js';
import { natsServersSetting } from './natsSetting.js';
import { serveFlagEnv, serveOptions } from './serveFlags.js';
import { npmParent, stopWhenParentGoes } from './parentWatch.js';
import { CommandFailure, UsageError } from '../usageError.js';

function checkUpstream(value: Setting): string {
  if (value.text === 'real' || value.text === 'emulator') return value.text;
  try {
    const url = new URL(value.text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return value.text;
  } catch {
    // reported below
  }
  throw new UsageError(`invalid ${value.source} '${value.text}': use real, emulator or an http(s) URL`);
}

/** Edge threads answering searches: one per CPU core unless told (docs/guarantees.md#threads). */
function parseThreads(value: Setting | undefined): number {
  if (value === undefined) return availableParallelism();
  if (!/^\d+$/.test(value.text) || Number(value.text) < 1 || Number(value.text) > limits.maxEdgeThreads) {
    throw new UsageError(`invalid ${value.source} '${value.text}': give 1-${limits.maxEdgeThreads}`);
  }
  return Number(value.text);
}

/** LOG_LEVEL is checked before the logger exists: pino would throw a stack at a bad one. */
function logLevel(): string {
  const level = process.env.LOG_LEVEL;
  if (level === undefined || level === '') return 'info';
  if (level === 'silent' || Object.hasOwn(pino.levels.values, level)) return level;
  throw new UsageError(`invalid LOG_LEVEL '${level}': use ${[...Object.keys(pino.levels.values), 'silent'].join(', ')}`);
}

/** Takes the port for this process or ends the command with the one line that says why. */
async function claimPort(host: string, port: number): Promise<() => void> {
  const guard = await guardPort(host, port);
  if (!guard.ok) throw new CommandFailure(describeRefusal(guard, host, port));
  return guard.release;
}

/** `--cors` / DATAPOINTS_CORS (docs/http.md#cors); unset or empty: none. */
function corsSetting(text: Setting | undefined): CorsOrigins | undefined {
  if (text === undefined) return undefined;
  try {
    return parseCorsOrigins(text.text);
  } catch (error) {
    throw new UsageError(`invalid ${text.source}: ${(error as Error).message}`);
  }
}

/** `--allow-private-hosts` / DATAPOINTS_ALLOW_PRIVATE_HOSTS (docs/host-safety.md#the-allow-list); unset: none. */
function allowPrivateHostsSetting(value: Setting | undefined): HostAllowList | undefined {
  if (value === undefined) return undefined;
  try {
    return parseAllowList(value.text);
  } catch (error) {
    throw new UsageError(`invalid ${value.source}: ${(error as Error).message}`);
  }
}

/** `--metrics` / DATAPOINTS_METRICS (docs/operations-endpoints.md#metrics); unset: no metrics. */
function metricsSetting(value: Setting | undefined): MetricsAddress | undefined {
  return value === undefined ? undefined : parseMetricsAddress(value.text, value.source);
}

/** `--nats` / DATAPOINTS_NATS and `--role` (docs/cluster.md#serving-in-a-cluster); no --nats: a node alone. */
function clusterSetting(nats: Setting | undefined, role: Setting | undefined): ClusterSettings | undefined {
  if (nats === undefined) {
    if (role !== undefined) throw new UsageError(`${role.source} needs --nats: a node alone does both`);
    return undefined;
  }
  return { servers: natsServersSetting(nats), role: role === undefined ? 'both' : parseRole(role) };
}

function parseRole(role: Setting): NodeRole {
  const found = nodeRoles.find((name) => name === role.text);
  if (found) return found;
  throw new UsageError(`invalid ${role.source} '${role.text}': use ${nodeRoles.join(', ')}`);
}

function logFormatSetting(text: string | undefined): LogFormat {
  const format = logFormatNamed(text);
  if (!format) throw new UsageError(`invalid LOG_FORMAT '${text}': use ${logFormats.join(' or ')}`);
  return format;
}

/**
 * The last resort behind every pipeline's own handler: an error nobody caught is a bug. The log
 * says so, the server stops as on SIGTERM (ending the process with edge threads still running
 * would abort it) and exits 1, for its supervisor to restart it (docs/architecture.md#when-background-work-fails).
 */
function logUnexpectedFailures(log: Logger): {
  stopWith(stop: () => Promise<void>): void;
  /** The same stop for a failure the server saw coming, told as `message`. */
  stopFor(error: Error, message: string): void;
} {
  let stop: (() => Promise<void>) | undefined;
  let failed = false;
  const fail = (error: unknown, message = 'unexpected failure: nothing handled this error; the server stops') => {
    log.fatal({ err: error }, message);
    if (failed) return;
    failed = true;
    setTimeout(() => process.exit(1), limits.stopDeadlineMs).unref();
    const exit = () => process.exit(1);
    (stop ?? (async () => undefined))().then(exit, exit);
  };
  // Not lmdb-js's own unheld promise of a failed commit: the commit's writes report it (docs/storage.md#a-full-disk).
  process.on('unhandledRejection', (reason) => {
    if (!isUnheldCommitFailure(reason)) fail(reason);
  });
  process.on('uncaughtException', fail);
  return {
    stopWith: (given) => {
      stop = given;
    },
    stopFor: fail,
  };
}

/**
 * Stops on SIGTERM/SIGINT (or when `parent`, the npm that started it, goes away), never taking
 * longer than the promised 5 s.
 */
function onTermination(stop: () => Promise<void>, parent: number | undefined): void {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      process.stderr.write(`datapoints: the stop did not finish within ${limits.stopDeadlineMs} ms; exiting\n`);
      process.exit(0);
    }, limits.stopDeadlineMs).unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`datapoints: error while stopping: ${firstLine(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  stopWhenParentGoes(parent, handler, parentCheckMs);
}

/** docs/history.md#retention */
function historySetting(detail: Setting | undefined, days: Setting | undefined): HistoryPolicy {
  return {
    detailMs: detail ? parseBoundedDuration(detail, historyBounds.detailMs) : historyDefaults.detailMs,
    days: days ? parseWholeNumber(days, historyBounds.days.min, historyBounds.days.max) : historyDefaults.days,
  };
}

/** A serve flag's setting: the flag, else its environment variable (src/cli/serveFlags.ts). */
function serveSetting(values: Record<string, string | boolean | undefined>, name: keyof typeof serveOptions): Setting | undefined {
  const value = values[name];
  return setting(typeof value === 'string' ? value : undefined, name, serveFlagEnv(name));
}

/** An IPv6 address goes in brackets in a URL. */
const hostInUrl = (host: string) => (host.includes(':') ? `[${host}]` : host);

export async function serveCommand(args: string[], print: (line: string) => void): Promise<void> {
  const parent = npmParent();
  const { values, positionals } = parseFlags('serve', args, serveOptions);
  noMorePositionals('serve', positionals, 0);
  const port = parsePort(serveSetting(values, 'port') ?? { text: String(serveDefaults.port), source: '--port' });
  const host = parseHost(serveSetting(values, 'host') ?? { text: serveDefaults.host, source: '--host' });
  const upstream = checkUpstream(serveSetting(values, 'upstream') ?? { text: serveDefaults.upstream, source: '--upstream' });
  const allowPrivateHosts = allowPrivateHostsSetting(serveSetting(values, 'allow-private-hosts'));
  const freshFor = serveSetting(values, 'fresh-for');
  const retryBase = serveSetting(values, 'retry-base');
  const policy = {
    ...defaultPolicy,
    freshForMs: freshFor ? parseBoundedDuration(freshFor, flagBounds.freshForMs) : defaultPolicy.freshForMs,
    retryBaseMs: retryBase ? parseBoundedDuration(retryBase, flagBounds.retryBaseMs) : defaultPolicy.retryBaseMs,
  };
  const history = historySetting(serveSetting(values, 'history-detail'), serveSetting(values, 'history-days'));
  const cluster = clusterSetting(serveSetting(values, 'nats'), serveSetting(values, 'role'));
  const threads = parseThreads(serveSetting(values, 'threads'));
  const level = logLevel();
  const logFormat = logFormatSetting(process.env.LOG_FORMAT);
  const dataDir = dataDirSetting(values.data);
  // The port first: a server that cannot listen creates no data directory (docs/operations.md#ports).
  const releasePort = await claimPort(host, port);
  // Checks the directory (a file, unwritable, unopenable) with one clear line before the
  // service opens it for good.
  try {
    await openDataStore(dataDir, 'create').root.close();
  } catch (error) {
    releasePort();
    throw error;
  }
  const log = createLogger(level, logFormat);
  const unexpectedFailures = logUnexpectedFailures(log);
  const cors = corsSetting(serveSetting(values, 'cors'));
  const metrics = metricsSetting(serveSetting(values, 'metrics'));
  // The guard above covers every edge thread: they share the port only among themselves.
  const secureCookies = values['secure-cookies'] === true;
  // Loaded once the settings are checked, so that a mistyped flag is answered at once rather
  // than after the whole server (uWebSockets.js, lmdb, NATS, every platform) has loaded.
  const { startService } = await import('../service.js');
  const service = await startService({
    host,
    port,
    dataDir: dataDir.text,
    upstream,
    policy,
    history,
    cors,
    log,
    threads,
    metrics,
    cluster,
    secureCookies,
    allowPrivateHosts,
    // docs/operations-endpoints.md#readiness-while-starting: printed before /readyz answers 200.
    onListening: (listening) => print(`listening on http://${host}:${listening}`),
    onFatal: (error) => unexpectedFailures.stopFor(error, 'edge threads keep ending: the server stops'),
  });
  if (metrics && service.metricsPort !== undefined) print(`metrics on http://${hostInUrl(metrics.host)}:${service.metricsPort}/metrics`);
  if (service.emulator) print(`emulator on ${service.emulator.url} (faults: POST /_emulator/faults)`);
  const stop = async () => {
    await service.stop();
    releasePort();
  };
  unexpectedFailures.stopWith(stop);
  onTermination(stop, parent);
}

export async function emulatorCommand(args: string[], print: (line: string) => void): Promise<void> {
  const parent = npmParent();
  const { values, positionals } = parseFlags('emulator', args, { port: { type: 'string' } });
  noMorePositionals('emulator', positionals, 0);
  const port = parsePort(setting(values.port, 'port') ?? { text: '0', source: '--port' });
  const releasePort = await claimPort('127.0.0.1', port);
  // Loaded only by this command and `serve --upstream emulator` (docs/operations-endpoints.md#the-emulator-stays-out).
  const { startEmulator } = await import('../emulator/server.js');
  const emulator = await startEmulator(port);
  print(`emulator listening on ${emulator.url}`);
  onTermination(async () => {
    emulator.close();
    releasePort();
  }, parent);
}
