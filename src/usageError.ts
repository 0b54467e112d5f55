/** A mistake in the command line: printed as one line on stderr, exit status 2. */
export class UsageError extends Error {}

/**
 * A command group (`accounts`, `tokens`, `resources`) named without its subcommand: its help is
 * printed on stderr, exit status 2, as for `datapoints` alone (docs/operations.md#exit-codes).
 */
export class MissingSubcommand extends UsageError {
  constructor(readonly command: string) {
    super(`${command} needs a subcommand (datapoints help ${command})`);
  }
}

/**
 * A command that was well formed but could not be carried out (a port in use, a data store
 * that cannot be opened): one line on stderr, exit status 1 (docs/operations.md#exit-codes).
 */
export class CommandFailure extends Error {}

/** The errno-style code of a system error ('EACCES', ...), if it has one. */
export function errorCode(error: unknown): unknown {
  return error instanceof Error && 'code' in error ? error.code : undefined;
}
