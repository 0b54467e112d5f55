// `datapoints resources show|list|history` (docs/operations.md#resources): what a resource machine
// holds and why it is next due, for whoever debugs collection. Read only: it never creates a
// store and never writes one.
import { identifierSyntax } from '../api/schema.js';
import { dueEventFor, type DueEventType } from '../../machines/resource.js';
import { flagBounds, historyBounds, historyDefaults } from '../config.js';
import { historyCsv, historyJson, historyOf } from '../api/historyResponse.js';
import type { RequestedResource } from '../api/validation.js';
import { DatapointSeries } from '../store/datapointSeries.js';
import { ResourceStore, type StoredResource } from '../store/resourceStore.js';
import { platformCodes } from '../platforms/registry.js';
import { parseResourceKey, type PlatformCode, type ResourceStatus } from '../model.js';
import type { Databases } from '../store/environment.js';
import { TransitionHistory } from '../store/transitionHistory.js';
import { dataDirSetting, dataFlag, withDataStore } from './dataStore.js';
import { noMorePositionals, parseFlags, setting } from './flags.js';
import { parseWholeNumber } from '../operatorInput.js';
import { datapointsText, table, utcMinute, when } from './resourceReport.js';
import { MissingSubcommand, UsageError } from '../usageError.js';

const statuses: readonly ResourceStatus[] = ['pending', 'available', 'stale', 'unavailable', 'not_found'];
const isStatus = (text: string): text is ResourceStatus => (statuses as readonly string[]).includes(text);
const isPlatform = (text: string): text is PlatformCode => (platformCodes as readonly string[]).includes(text);

/** Why a resource in this state is due, in the words of docs/operations.md#resources. */
function dueReason(stored: StoredResource, event: DueEventType): string {
  if (event === 'REFRESH_DUE') return 'refresh: its datapoints reach the end of their freshness window';
  if (event === 'RECHECK_DUE') return 'recheck: the platform said it does not exist; look again';
  if (stored.value === 'pending' && stored.context.failures === 0)
    return 'lease: a collection was asked for; ask again if it has not answered';
  return `retry after ${stored.context.failures} failed collection(s) in a row (last: ${stored.context.lastFailure ?? 'unknown'})`;
}

/** The report of one resource: its state, when and why it is next due, what it holds, its last steps. */
function describeResource(dbs: Databases, key: string, stored: StoredResource, now: number): string[] {
  const { context } = stored;
  // The due index holds the event the scheduler will send; the state's usual one if it is missing.
  const event = dbs.due.get([context.nextDueAt, key]) ?? dueEventFor[stored.value];
  // docs/storage.md#transition-history: the last steps of its machine, oldest first.
  const transitions = new TransitionHistory(dbs).history(key);
  return [
    ...table([
      ['resource', key],
      ['state', stored.value],
      ['next due', `${when(context.nextDueAt, now)} ${event}`],
      ['why', dueReason(stored, event)],
      ['last success', when(context.lastSuccessAt, now)],
      ['failures', `${context.failures} in a row${context.lastFailure ? ` (last: ${context.lastFailure})` : ''}`],
      ['datapoints', datapointsText(context)],
    ]),
    `transitions, oldest first (${transitions.length}):`,
    ...table(transitions.map(({ at, event, from, to }) => [`  ${utcMinute(at)}`, `${event} ${from ?? '(new)'} -> ${to}`])),
  ];
}

/** The reference named by PLATFORM TYPE IDENTIFIER, checked and keyed as the API does. */
function namedResource(command: string, args: string[]): RequestedResource {
  const [platform, type, identifier] = args;
  if (identifier === undefined) throw new UsageError(`resources ${command} needs PLATFORM TYPE IDENTIFIER`);
  const syntax = identifierSyntax(platform!, type!);
  if (!syntax) throw new UsageError(`unknown platform and type '${platform} ${type}'`);
  // Checked and normalized as the API does, so the operator may paste what a client sent.
  const resource = syntax.requested(identifier);
  if (!resource) throw new UsageError(`invalid identifier '${identifier}' for ${platform} ${type}`);
  return resource;
}

function showResource(dbs: Databases, args: string[], print: (line: string) => void): void {
  const { key } = namedResource('show', args);
  const stored = dbs.resources.get(key);
  if (!stored) throw new UsageError(`resource ${key} is not tracked`);
  for (const line of describeResource(dbs, key, stored, Date.now())) print(line);
}

function listResources(
  dbs: Databases,
  filter: { status: ResourceStatus | undefined; platform: PlatformCode | undefined; limit: number },
  print: (line: string) => void,
): void {
  const counts: Record<string, Partial<Record<ResourceStatus, number>>> = {};
  const matching: Array<Record<string, unknown>> = [];
  let total = 0;
  for (const { key, value } of dbs.resources.getRange()) {
    if (typeof key !== 'string') continue;
    const stored = value;
    const { platform } = parseResourceKey(key);
    // --platform narrows the counts too: they describe what was asked for.
    if (filter.platform && platform !== filter.platform) continue;
    const byStatus = counts[platform] ?? {};
    counts[platform] = byStatus;
    byStatus[stored.value] = (byStatus[stored.value] ?? 0) + 1;
    total++;
    if (filter.status && stored.value !== filter.status) continue;
    if (matching.length < filter.limit) {
      matching.push({
        resource: key,
        state: stored.value,
        next_due_at: new Date(stored.context.nextDueAt).toISOString(),
        failures: stored.context.failures,
        last_failure: stored.context.lastFailure,
      });
    }
  }
  print(JSON.stringify({ total, counts }));
  for (const line of matching) print(JSON.stringify(line));
}

/** docs/history.md#cli: the API's history answer for one resource, read from the data directory. */
function printHistory(dbs: Databases, args: string[], options: { days: number; csv: boolean }, print: (line: string) => void): void {
  const resource = namedResource('history', args);
  if (!dbs.resources.get(resource.key)) throw new UsageError(`resource ${resource.key} is not tracked`);
  const now = Date.now();
  const request = { resources: [resource], from: now - options.days * 86_400_000, to: now, interval: 'day' as const };
  // The widest retention: the command reads what the directory holds, whatever the server keeps.
  const series = new DatapointSeries(dbs, { ...historyDefaults, days: historyBounds.days.max });
  const { entries } = historyOf(request, new ResourceStore(dbs), series, now);
  // print ends the last row itself (RFC 4180 makes the last line break optional).
  if (options.csv) print(historyCsv(entries).slice(0, -2));
  else print(JSON.stringify(JSON.parse(historyJson(entries)).data[0], null, 2));
}

export async function resourcesCommand(args: string[], print: (line: string) => void): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'show') {
    const { values, positionals } = parseFlags('resources show', rest, dataFlag);
    noMorePositionals('resources show', positionals, 3);
    return withDataStore(dataDirSetting(values.data), 'existing', (dbs) => showResource(dbs, positionals, print));
  }
  if (action === 'list') {
    const { values, positionals } = parseFlags('resources list', rest, {
      ...dataFlag,
      status: { type: 'string' },
      platform: { type: 'string' },
      limit: { type: 'string' },
    });
    noMorePositionals('resources list', positionals, 0);
    const { status, platform } = values;
    if (status !== undefined && !isStatus(status)) throw new UsageError(`invalid --status '${status}': use ${statuses.join(', ')}`);
    if (platform !== undefined && !isPlatform(platform))
      throw new UsageError(`invalid --platform '${platform}': use ${platformCodes.join(', ')}`);
    const limitSetting = setting(values.limit, 'limit');
    const limit = limitSetting ? parseWholeNumber(limitSetting, 1, flagBounds.resourcesListed.max) : flagBounds.resourcesListed.default;
    return withDataStore(dataDirSetting(values.data), 'existing', (dbs) => listResources(dbs, { status, platform, limit }, print));
  }
  if (action === 'history') {
    const { values, positionals } = parseFlags('resources history', rest, {
      ...dataFlag,
      days: { type: 'string' },
      csv: { type: 'boolean' },
    });
    noMorePositionals('resources history', positionals, 3);
    const daysSetting = setting(values.days, 'days');
    const days = daysSetting ? parseWholeNumber(daysSetting, 1, historyBounds.days.max) : 30;
    const csv = values.csv === true;
    return withDataStore(dataDirSetting(values.data), 'existing', (dbs) => printHistory(dbs, positionals, { days, csv }, print));
  }
  if (action === undefined) throw new MissingSubcommand('resources');
  throw new UsageError(`unknown resources command '${action}': use show, list or history`);
}
