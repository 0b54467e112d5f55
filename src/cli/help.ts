// The help texts of `datapoints help [COMMAND]` (docs/operations.md#commands).
import { accountSuspension, flagBounds, historyBounds, serveDefaults } from '../config.js';
import { faultDescriptions, faultModes } from '../faultModes.js';
import { formatDuration } from '../duration.js';
import { serveFlagsHelp } from './serveFlags.js';

const natsLine = `  --nats URLS       act on the cluster at nats://HOST:PORT[,...] instead of --data
                    (env DATAPOINTS_NATS; docs/cluster.md)`;
const dataLine = `  --data DIR        data directory (env DATAPOINTS_DATA; default ${serveDefaults.dataDir})`;

const overview = `usage: datapoints <command> [arguments] [flags]

commands:
  serve                         run the service (npm start runs this)
  emulator                      run the platform emulator on loopback
  accounts create|show|list|update|suspend|resume|usage|delete|invite
                                manage accounts
  tokens create|list|revoke     manage API tokens
  backup DIR                    copy the data store of a running server into DIR
  resources show|list|history   inspect tracked resources, why they are due, their history
  help [COMMAND]                print this text, or a command's

flags for every command: --help, -h
datapoints --version prints the version.
Exit status: 0 done, 1 could not be done (port in use, data store unusable), 2 bad command or flag.`;

const texts: Record<string, string> = {
  serve: `usage: datapoints serve [flags]

Runs the service until SIGTERM or SIGINT, then finishes requests in flight and exits 0.
Prints "listening on http://HOST:PORT" once it accepts requests.

flags:
${serveFlagsHelp()}

Durations are written 250ms, 30s, 1m, 6h, 1d. LOG_LEVEL sets the log level (default info);
LOG_FORMAT=pretty prints readable lines instead of JSON.
A port already in use ends the command with "port N is in use" and exit status 1.`,

  emulator: `usage: datapoints emulator [--port N]

Runs the platform emulator on 127.0.0.1 until SIGTERM or SIGINT.

flags:
  --port N          port, 0 picks a free one (default 0)

Identifiers whose name starts with missing, flaky (HTTP 503), slow (3 s) or rounded (1.2K)
are answered so. Faults are switched at run time (GET /_emulator/faults lists them):
  curl -X POST http://127.0.0.1:PORT/_emulator/faults \\
    -d '{"platform":"github","identifier":"octo","mode":"error"}'
"identifier": "*" applies to the whole platform. Modes:
${faultModes.map((mode) => `  ${mode.padEnd(18)}${faultDescriptions[mode]}`).join('\n')}
Counts are moved at run time too (GET /_emulator/counts lists what was added):
  curl -X POST http://127.0.0.1:PORT/_emulator/counts \\
    -d '{"platform":"github","identifier":"octo","add":{"followers":250}}'`,

  accounts: `usage:
  datapoints accounts create NAME [--plan free|paid] [--quota N|none] [--rate N/DURATION] [--operator]
  datapoints accounts show NAME
  datapoints accounts list
  datapoints accounts update NAME [--plan free|paid] [--quota N|none] [--rate N/DURATION] [--operator true|false]
  datapoints accounts suspend NAME [--reason TEXT]
  datapoints accounts resume NAME
  datapoints accounts usage NAME [--days N]
  datapoints accounts delete NAME --yes
  datapoints accounts invite NAME [--url URL]

flags:
  --plan P          free or paid (default free); update: also resets quota and rate to the
                    plan's unless given
  --quota N|none    requests a calendar month (default: the plan's)
  --rate N/D        N requests per window D, e.g. 60/1m (default: the plan's; window ${range(flagBounds.rateWindowMs)})
  --reason TEXT     suspend: why, for operators (one line, at most ${accountSuspension.maxReasonLength} characters)
  --days N          usage: the last N UTC days, today included, one JSON line each
                    (default ${flagBounds.usageDays.default}; at most ${flagBounds.usageDays.max}, the days kept)
  --yes             delete: confirms removing the account, its tokens and its usage
  --operator        create: the account may use the operator console (/console);
                    update: --operator true or false
  --url URL         invite: the server's address as browsers reach it
                    (default DATAPOINTS_URL, else http://localhost:8080; with --nats required)
${dataLine}
${natsLine}

A suspended account's searches are refused with 403 until it is resumed; its tokens, limits
and usage are kept. Changes take effect on a running server within one second (with --nats:
on every node, and an invite made with --nats is accepted on any node; usage reads only the
--data directory, not --nats: a cluster node's directory holds the cluster's daily counts).`,

  tokens: `usage:
  datapoints tokens create NAME [--note TEXT]
  datapoints tokens list NAME
  datapoints tokens revoke TOKEN_ID|SECRET

create prints the secret alone on the last line; it is never shown again. list shows each
token's id, its first characters (to match a leaked secret), note, dates; never the secret.
revoke takes the token id or the secret itself.

flags:
  --note TEXT       a note kept with the token (at most 200 characters)
${dataLine}
${natsLine}`,

  backup: `usage: datapoints backup DIR [--data DIR]

Copies the data store into DIR (which must be absent or empty) as one consistent snapshot,
also while a server is running on it. Start a server on the copy with --data DIR.

flags:
${dataLine}`,

  resources: `usage:
  datapoints resources show PLATFORM TYPE IDENTIFIER
  datapoints resources list [--status S] [--platform P] [--limit N]
  datapoints resources history PLATFORM TYPE IDENTIFIER [--days N] [--csv]

show prints a resource's state, context and when it is next due, and why.
list prints the counts per platform and status, then the matching resources.
history prints its datapoints' daily series (docs/history.md), as JSON or CSV.

flags:
  --status S        pending | available | stale | unavailable | not_found
  --platform P      one platform, e.g. github
  --limit N         resources listed at most (default ${flagBounds.resourcesListed.default})
  --days N          history: days back from now (default 30; 1-${historyBounds.days.max})
  --csv             history: CSV rows instead of JSON
${dataLine}`,
};

function range(bounds: { min: number; max: number }): string {
  return `${formatDuration(bounds.min)} to ${formatDuration(bounds.max)}`;
}

export const helpTopics = Object.keys(texts);

/** The help for a command, or the overview; undefined for an unknown command. */
export function helpText(command?: string): string | undefined {
  if (command === undefined) return overview;
  return Object.hasOwn(texts, command) ? texts[command] : undefined;
}
