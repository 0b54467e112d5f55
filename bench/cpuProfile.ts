// Reading `node --cpu-prof` profiles for the cost accounts (bench/README.md#cost-account): a window's
// CPU time (from /proc) shared among items by their samples, each sample to the deepest frame an item claims.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** An item of an account: claims a frame by its function name and the URL of its file ('' for native code). */
export interface ProfileItem {
  name: string;
  claims(functionName: string, url: string): boolean;
}

export const file = (part: string) => (_: string, url: string) => url.includes(part);
export const native =
  (...names: string[]) =>
  (functionName: string, url: string) =>
    url === '' && names.includes(functionName);
/** Samples no item claims. */
export const otherJs = 'other JavaScript';

/** Node's flags for a profile of every thread into `dir`, one sample every 100 µs. */
export const profilingFlags = (dir: string) => ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '100'];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ThreadAccount {
  /** Non-idle samples in the window, per item. */
  samples: Map<string, number>;
  busy: number;
  /** Self samples per item and function, for --top. */
  unclaimed: Map<string, number>;
}

/** The samples of one profile that fall in [from, to] (µs of the monotonic clock), sorted into items. */
function account(profile: Profile, items: readonly ProfileItem[], from: number, to: number): ThreadAccount {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const itemOf = new Map<number, string | null>();
  const claim = (id: number): string | null => {
    const known = itemOf.get(id);
    if (known !== undefined) return known;
    const { functionName, url } = byId.get(id)!.callFrame;
    const own = items.find((item) => item.claims(functionName, url))?.name;
    const up = parent.get(id);
    const result = own ?? (up === undefined ? null : claim(up));
    itemOf.set(id, result);
    return result;
  };
  const samples = new Map<string, number>();
  const unclaimed = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  for (let index = 0; index < profile.samples.length; index++) {
    at += profile.timeDeltas[index]!;
    if (at < from || at > to) continue;
    const id = profile.samples[index]!;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    busy++;
    const item = claim(id) ?? otherJs;
    samples.set(item, (samples.get(item) ?? 0) + 1);
    const key = `${item}: ${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(node_modules|dist)\//, '')}`;
    unclaimed.set(key, (unclaimed.get(key) ?? 0) + 1);
  }
  return { samples, busy, unclaimed };
}

const ticksPerSecond = 100;
/** CPU time of each thread of `pid` so far, in µs (utime + stime of /proc/PID/task/TID/stat). */
export function threadCpu(pid: number): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    cpu.set(tid, ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticksPerSecond);
  }
  return cpu;
}

/** Each thread's name (its `comm`: Node's main thread `node`, libuv's pool `libuv-worker`, V8's `V8 DefaultWorke`...) by task id. */
export function threadNames(pid: number): Map<string, string> {
  const names = new Map<string, string>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) names.set(tid, readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim());
  return names;
}

export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

const profileNames = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
const readProfile = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Profile;

/** The account of the profile in `dir` (one per thread) busiest in the window; undefined when none has samples there. */
export function busiestProfile(dir: string, items: readonly ProfileItem[], from: number, to: number): ThreadAccount | undefined {
  const accounts = profileNames(dir).map((name) => account(readProfile(dir, name), items, from, to));
  const busiest = accounts.sort((a, b) => b.busy - a.busy)[0];
  return busiest && busiest.busy > 0 ? busiest : undefined;
}

/**
 * The account of the main thread's profile (Node names it `CPU.<date>.<time>.<pid>.0.<n>.cpuprofile`,
 * thread 0), for a window where another thread is the busiest; undefined when it has no samples there.
 */
export function mainThreadProfile(dir: string, items: readonly ProfileItem[], from: number, to: number): ThreadAccount | undefined {
  const name = profileNames(dir).find((candidate) => candidate.split('.')[4] === '0');
  const main = name === undefined ? undefined : account(readProfile(dir, name), items, from, to);
  return main && main.busy > 0 ? main : undefined;
}

/** µs per unit of work, per item: `cpuMicros` of the thread divided as its samples are. */
export function perUnit(account: ThreadAccount, cpuMicros: number, units: number): Map<string, number> {
  const perItem = new Map<string, number>();
  for (const [item, count] of account.samples) perItem.set(item, ((count / account.busy) * cpuMicros) / units);
  return perItem;
}
