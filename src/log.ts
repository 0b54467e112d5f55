// Structured logs (pino). Tokens never reach a log line: only token ids and account names do.
// JSON lines by default; LOG_FORMAT=pretty prints them for a person at a terminal
// (docs/http.md#log-formats).
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

export const logFormats = ['json', 'pretty'] as const;
export type LogFormat = (typeof logFormats)[number];

/** The format LOG_FORMAT names (unset or empty: json); undefined for anything else. */
export function logFormatNamed(text: string | undefined): LogFormat | undefined {
  if (text === undefined || text === '') return 'json';
  return logFormats.find((format) => format === text);
}

export function createLogger(level = process.env.LOG_LEVEL ?? 'info', format: LogFormat = 'json'): Logger {
  const options = { level, base: { service: 'datapoints' } };
  if (format === 'json') return pino(options);
  // In this thread and synchronous, not a transport's worker: the last lines before an exit
  // (the shutdown's "stopped") are written, not lost with the worker.
  return pino(options, pretty({ destination: 1, sync: true, colorize: process.stdout.isTTY === true, ignore: 'service' }));
}

export const silentLogger: Logger = pino({ level: 'silent' });
