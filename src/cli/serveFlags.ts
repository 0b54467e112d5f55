// The flags of `datapoints serve`, defined once: the parseArgs options, the `serve --help` text
// and the table in docs/operations.md ("Flags of `serve`", written by `npm run docs:flags`)
// are all made from this list. Adding a flag is one entry here plus its parsing in serveCommands.ts.
import { defaultPolicy, flagBounds, historyBounds, historyDefaults, limits, serveDefaults } from '../config.js';
import { formatDuration } from '../duration.js';

export interface ServeFlag {
  name: string;
  /** The value's placeholder; a flag without one is a switch (boolean). */
  value?: string;
  /** The environment variable the flag falls back to. */
  env?: string;
  default: string;
  /** Durations: the bounds, shown in the help and the docs. */
  bounds?: { min: number; max: number };
  /** What the flag accepts, in the docs' Markdown (backticks are dropped in the help). */
  accepted: string;
  /** What the flag does, one phrase. */
  meaning: string;
  /** The doc section that says more, relative to docs/. */
  doc?: string;
}

const range = (bounds: { min: number; max: number }) => `${formatDuration(bounds.min)} to ${formatDuration(bounds.max)}`;

export const serveFlags = [
  {
    name: 'port',
    value: 'N',
    env: 'PORT',
    default: String(serveDefaults.port),
    accepted: '0-65535',
    meaning: 'HTTP port, 0 picks a free one',
  },
  {
    name: 'host',
    value: 'H',
    env: 'HOST',
    default: serveDefaults.host,
    accepted: 'an IPv4 or IPv6 address, or a host name (RFC 1123; a name ending in a numeric label such as `999.1.1.1` is refused)',
    meaning: 'listen address',
  },
  {
    name: 'data',
    value: 'DIR',
    env: 'DATAPOINTS_DATA',
    default: serveDefaults.dataDir,
    accepted: 'a directory (created if absent)',
    meaning: 'data directory',
  },
  {
    name: 'upstream',
    value: 'U',
    env: 'DATAPOINTS_UPSTREAM',
    default: serveDefaults.upstream,
    accepted: '`real`, `emulator`, or an http(s) URL of a running emulator',
    meaning: 'where counts are collected from: the platforms, the built-in emulator or a running one',
  },
  {
    name: 'allow-private-hosts',
    value: 'LIST',
    env: 'DATAPOINTS_ALLOW_PRIVATE_HOSTS',
    default: 'none',
    accepted: 'host names and address ranges (`10.0.0.0/8`, `fd00::/8`), comma-separated',
    meaning: 'with --upstream real: hosts that references name which may be at private addresses (your own instance)',
    doc: 'host-safety.md#the-allow-list',
  },
  {
    name: 'fresh-for',
    value: 'D',
    default: formatDuration(defaultPolicy.freshForMs),
    bounds: flagBounds.freshForMs,
    accepted: range(flagBounds.freshForMs),
    meaning: 'freshness window of available resources',
  },
  {
    name: 'retry-base',
    value: 'D',
    default: formatDuration(defaultPolicy.retryBaseMs),
    bounds: flagBounds.retryBaseMs,
    accepted: `${range(flagBounds.retryBaseMs)} (the retry cap: a larger base would never double)`,
    meaning: 'first retry delay of stale/unavailable resources',
  },
  {
    name: 'threads',
    value: 'N',
    env: 'DATAPOINTS_THREADS',
    default: 'the number of CPU cores',
    accepted: `1-${limits.maxEdgeThreads}`,
    meaning: 'edge threads answering searches on the port',
    doc: 'architecture.md#threads',
  },
  {
    name: 'cors',
    value: 'ORIGINS',
    env: 'DATAPOINTS_CORS',
    default: 'none, no CORS headers',
    accepted: 'origins (comma-separated) or `*`',
    meaning: 'origins whose pages may call the API',
    doc: 'http.md#cors',
  },
  {
    name: 'metrics',
    value: 'H:P',
    env: 'DATAPOINTS_METRICS',
    default: 'off',
    accepted: '`HOST:PORT` (`[::1]:9464` for IPv6); port 0 picks a free one',
    meaning: 'serve Prometheus metrics at http://H:P/metrics',
    doc: 'operations-endpoints.md',
  },
  {
    name: 'secure-cookies',
    default: 'off',
    accepted: 'a switch',
    meaning: "mark the dashboard's session cookie Secure: browsers reach this server over TLS (a proxy in front)",
    doc: 'dashboard.md#cookies',
  },
  {
    name: 'nats',
    value: 'URLS',
    env: 'DATAPOINTS_NATS',
    default: 'none, a node alone',
    accepted: '`nats://HOST:PORT`, comma-separated, of nats-server with JetStream',
    meaning: 'join a cluster: the nats-server(s) with JetStream the nodes share',
    doc: 'cluster.md',
  },
  {
    name: 'role',
    value: 'R',
    default: 'both',
    accepted: '`search`, `collect` or `both`; only with `--nats`',
    meaning: 'with --nats: search (answer searches), collect (collect only; the search path is 404 there) or both',
    doc: 'cluster.md#node-roles',
  },
  {
    name: 'history-detail',
    value: 'D',
    default: formatDuration(historyDefaults.detailMs),
    bounds: historyBounds.detailMs,
    accepted: range(historyBounds.detailMs),
    meaning: 'every collected point is kept this long, then one a UTC day',
    doc: 'history.md#retention',
  },
  {
    name: 'history-days',
    value: 'N',
    default: String(historyDefaults.days),
    accepted: `${historyBounds.days.min}-${historyBounds.days.max}`,
    meaning: 'days of history kept; 0 records none',
    doc: 'history.md#retention',
  },
] as const satisfies readonly ServeFlag[];

type FlagList = typeof serveFlags;
type FlagOptions = {
  [F in FlagList[number] as F['name']]: { type: F extends { value: string } ? 'string' : 'boolean' };
};

/** The options `serve` gives parseArgs. */
export const serveOptions = Object.fromEntries(
  serveFlags.map((flag: ServeFlag) => [flag.name, { type: flag.value === undefined ? 'boolean' : 'string' }]),
) as FlagOptions;

/** The flag's environment variable, for `setting()`. */
export function serveFlagEnv(name: FlagList[number]['name']): string | undefined {
  const flag: ServeFlag | undefined = serveFlags.find((entry) => entry.name === name);
  return flag?.env;
}

const flagColumn = 18;
const helpWidth = 92;

const written = (flag: ServeFlag) => (flag.value === undefined ? `--${flag.name}` : `--${flag.name} ${flag.value}`);
const plain = (markdown: string) => markdown.replaceAll('`', '');

/** The `flags:` lines of `serve --help`: the meaning, then (env; default; bounds; doc). */
export function serveFlagsHelp(): string {
  const indent = ' '.repeat(flagColumn + 2);
  return serveFlags
    .map((flag: ServeFlag) => {
      const notes = [
        flag.env && `env ${flag.env}`,
        `default ${flag.default}`,
        flag.bounds && range(flag.bounds),
        flag.doc && `docs/${flag.doc}`,
      ].filter(Boolean);
      const lines = wrap(plain(flag.meaning), helpWidth - indent.length);
      const note = `(${notes.join('; ')})`;
      if (lines[lines.length - 1]!.length + 1 + note.length <= helpWidth - indent.length) lines[lines.length - 1] += ` ${note}`;
      else lines.push(note);
      // A flag too long for its column gets a line of its own, the meaning below it.
      if (written(flag).length > flagColumn - 2) return [`  ${written(flag)}`, ...lines.map((line) => indent + line)].join('\n');
      const first = `  ${written(flag).padEnd(flagColumn - 2)}  ${lines[0]}`;
      return [first, ...lines.slice(1).map((line) => indent + line)].join('\n');
    })
    .join('\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** The Markdown table of docs/operations.md#flags-of-serve. */
export function serveFlagsTable(): string {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const linked = (flag: ServeFlag) => {
    if (flag.doc === undefined) return flag.meaning;
    const label = (flag.doc.split('#')[1] ?? flag.doc.replace(/\.md$/, '')).replaceAll('-', ' ');
    return `${flag.meaning} ([${label}](${flag.doc}))`;
  };
  return [
    row(['flag', 'env', 'default', 'accepted', 'meaning']),
    row(['---', '---', '---', '---', '---']),
    ...serveFlags.map((flag: ServeFlag) =>
      row([`\`${written(flag)}\``, flag.env ? `\`${flag.env}\`` : '', flag.default, flag.accepted, linked(flag)]),
    ),
  ].join('\n');
}

export const flagsTableMarkers = { start: '<!-- serve-flags:start -->', end: '<!-- serve-flags:end -->' } as const;

/** The doc with the text between the markers replaced by the table; throws if a marker is missing. */
export function withServeFlagsTable(doc: string): string {
  const start = doc.indexOf(flagsTableMarkers.start);
  const end = doc.indexOf(flagsTableMarkers.end);
  if (start < 0 || end < start) throw new Error(`the markers ${flagsTableMarkers.start} and ${flagsTableMarkers.end} are missing`);
  return `${doc.slice(0, start + flagsTableMarkers.start.length)}\n${serveFlagsTable()}\n${doc.slice(end)}`;
}
