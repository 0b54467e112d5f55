// Command-line flags (the values they take: src/operatorInput.ts). Every mistake becomes one
// UsageError line (docs/operations.md#exit-codes), never parseArgs' multi-line messages or a stack.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Setting } from '../operatorInput.js';
import { errorCode, UsageError } from '../usageError.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs in strict mode, its errors rewritten as one line that names the command. */
export function parseFlags<T extends Options>(command: string, args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(flagProblem(command, error));
  }
}

function flagProblem(command: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = errorCode(error);
  const flag = /'(-[^' <]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return `unknown flag '${flag}' for ${command}; see datapoints help ${command.split(' ')[0]}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // "argument is ambiguous": the next word starts with '-', e.g. a negative number.
    if (message.includes('ambiguous')) return `${flag} needs a value; a value starting with '-' is written ${flag}=VALUE`;
    if (message.includes('argument missing')) return `${flag} needs a value`;
    return `${flag} takes no value`;
  }
  return message.split('\n')[0]!;
}

export function setting(flagValue: string | undefined, flag: string, envName?: string): Setting | undefined {
  if (flagValue !== undefined) return { text: flagValue, source: `--${flag}` };
  const fromEnv = envName === undefined ? undefined : process.env[envName];
  return fromEnv === undefined || fromEnv === '' ? undefined : { text: fromEnv, source: envName! };
}

export function noMorePositionals(command: string, positionals: string[], expected: number): void {
  if (positionals.length > expected) throw new UsageError(`unexpected argument '${positionals[expected]}' for ${command}`);
}
