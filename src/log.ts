// Structured logs (pino). Tokens never reach a log line: only token ids and account names do.
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { service: 'datapoints' } });
}

export const silentLogger: Logger = pino({ level: 'silent' });
