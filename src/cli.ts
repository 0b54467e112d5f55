#!/usr/bin/env node
// `npx datapoints <command>` (docs/operations.md#commands; docs/operations.md#commands).
import { readFileSync } from 'node:fs';
import { helpText } from './cli/help.js';
import { CommandFailure, MissingSubcommand, UsageError } from './cli/usageError.js';
import { DataDirectoryError } from './store/dataDirectoryError.js';

type Command = (args: string[], print: (line: string) => void) => Promise<void>;

// Loaded on demand: account and token commands start without the server's dependencies.
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./cli/serveCommands.js')).serveCommand,
  emulator: async () => (await import('./cli/serveCommands.js')).emulatorCommand,
  accounts: async () => (await import('./cli/accountCommands.js')).accountsCommand,
  tokens: async () => (await import('./cli/tokenCommands.js')).tokensCommand,
  backup: async () => (await import('./cli/backupCommand.js')).backupCommand,
  resources: async () => (await import('./cli/resourceCommands.js')).resourcesCommand,
};

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

function version(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return String((manifest as { version?: unknown }).version);
}

/** `--help` or `-h` before a `--` asks for help, wherever it stands. */
const asksForHelp = (args: string[]) => {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
};

function endOnClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
  process.exit(141);
}

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  // A reader that stops early (`| head`) closes the pipe: the command ends quietly with 141, as a
  // Unix tool ended by SIGPIPE does, rather than with a stack (docs/operations.md#exit-codes).
  // Not for the servers, whose output is their log: they stop on signals only.
  if (name !== 'serve' && name !== 'emulator') process.stdout.on('error', endOnClosedPipe);
  if (name === undefined) {
    // Without a command there is nothing to do: the help goes to stderr and the status says so,
    // as a script that forgot its command should fail.
    process.stderr.write(`${helpText()}\n`);
    process.exitCode = 2;
    return;
  }
  if (name === '--version') return print(version());
  if (name === '--help' || name === '-h') return print(helpText()!);
  if (name === 'help') {
    const text = helpText(args[0]);
    if (text === undefined) throw new UsageError(`no help for '${args[0]}': commands are ${Object.keys(commands).join(', ')}`);
    return print(text);
  }
  if (!Object.hasOwn(commands, name)) {
    throw new UsageError(`unknown command '${name}'; commands are ${Object.keys(commands).join(', ')} (datapoints help)`);
  }
  if (asksForHelp(args)) return print(helpText(name)!);
  const command = await commands[name]!();
  await command(args, print);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof MissingSubcommand) {
    process.stderr.write(`${helpText(error.command)}\n`);
    process.exit(2);
  }
  // A data directory the operator must fix (in use, another format, another upstream's data)
  // is a failure of its own kind: one line, exit 1 (docs/storage.md#what-the-command-line-may-do-while-a-server-runs).
  const known = error instanceof UsageError || error instanceof CommandFailure || error instanceof DataDirectoryError;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  process.stderr.write(`datapoints: ${message}\n`);
  // An error we did not foresee is still one line; its stack only when asked for.
  if (!known && process.env.LOG_LEVEL === 'debug' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
