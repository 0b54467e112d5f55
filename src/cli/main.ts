// The command line as a function: `runCli(argv, io)` runs one command and resolves to its exit
// status (docs/operations.md#exit-codes), so that tests call it in process; src/cli.ts is the process around it.
import { existsSync, readFileSync } from 'node:fs';
import { DataDirectoryError } from '../store/dataDirectoryError.js';
import { helpText } from './help.js';
import { CommandFailure, MissingSubcommand, UsageError } from '../usageError.js';

type Command = (args: string[], print: (line: string) => void) => Promise<void>;

/** Where a command writes: the process's streams, or a test's. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

// Loaded on demand: account and token commands start without the server's dependencies.
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serveCommands.js')).serveCommand,
  emulator: async () => (await import('./serveCommands.js')).emulatorCommand,
  accounts: async () => (await import('./accountCommands.js')).accountsCommand,
  tokens: async () => (await import('./tokenCommands.js')).tokensCommand,
  backup: async () => (await import('./backupCommand.js')).backupCommand,
  resources: async () => (await import('./resourceCommands.js')).resourcesCommand,
};

/** The nearest package.json above this module: the same from src/ (tests) and from dist/src/. */
function version(): string {
  for (let dir = new URL('./', import.meta.url); dir.pathname !== '/'; dir = new URL('../', dir)) {
    const manifest = new URL('package.json', dir);
    if (existsSync(manifest)) return String((JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown }).version);
  }
  throw new Error('package.json not found above src/cli/main');
}

/** `--help` or `-h` before a `--` asks for help, wherever it stands. */
const asksForHelp = (args: string[]) => {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
};

async function run(argv: string[], io: CliIo): Promise<number> {
  const print = (line: string) => void io.stdout.write(`${line}\n`);
  const [name, ...args] = argv;
  if (name === undefined) {
    // Without a command there is nothing to do: the help goes to stderr and the status says so,
    // as a script that forgot its command should fail.
    io.stderr.write(`${helpText()}\n`);
    return 2;
  }
  if (name === '--version') print(version());
  else if (name === '--help' || name === '-h') print(helpText()!);
  else if (name === 'help') {
    const text = helpText(args[0]);
    if (text === undefined) throw new UsageError(`no help for '${args[0]}': commands are ${Object.keys(commands).join(', ')}`);
    print(text);
  } else if (!Object.hasOwn(commands, name)) {
    throw new UsageError(`unknown command '${name}'; commands are ${Object.keys(commands).join(', ')} (datapoints help)`);
  } else if (asksForHelp(args)) print(helpText(name)!);
  else await (await commands[name]!())(args, print);
  return 0;
}

/** Runs one command; every failure becomes its one line on stderr and its exit status. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    if (error instanceof MissingSubcommand) {
      io.stderr.write(`${helpText(error.command)}\n`);
      return 2;
    }
    // A data directory the operator must fix (in use, another format, another upstream's data)
    // is a failure of its own kind: one line, exit 1 (docs/storage.md#what-the-command-line-may-do-while-a-server-runs).
    const known = error instanceof UsageError || error instanceof CommandFailure || error instanceof DataDirectoryError;
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    io.stderr.write(`datapoints: ${message}\n`);
    // An error we did not foresee is still one line; its stack only when asked for.
    if (!known && process.env.LOG_LEVEL === 'debug' && error instanceof Error) io.stderr.write(`${error.stack}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}
