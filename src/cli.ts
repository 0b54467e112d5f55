#!/usr/bin/env node
// `npx datapoints <command>` (operator-interface.md).
import { UsageError } from './cli/usageError.js';
import { DataDirectoryError } from './store/dataDirectoryError.js';

type Command = (args: string[], print: (line: string) => void) => Promise<void>;

// Loaded on demand: account and token commands start without the server's dependencies.
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./cli/serveCommands.js')).serveCommand,
  emulator: async () => (await import('./cli/serveCommands.js')).emulatorCommand,
  accounts: async () => (await import('./cli/accountCommands.js')).accountsCommand,
  tokens: async () => (await import('./cli/tokenCommands.js')).tokensCommand,
};

const usage = 'usage: datapoints serve|emulator|accounts create|show|tokens create|list|revoke ... (see README)';

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || !Object.hasOwn(commands, name)) {
    throw new UsageError(name === undefined ? usage : `unknown command '${name}'; ${usage}`);
  }
  const command = await commands[name]!();
  await command(args, (line) => process.stdout.write(line + '\n'));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // parseArgs reports unknown flags as TypeErrors with a code: they are usage errors too.
  const code = (error as { code?: unknown } | undefined)?.code;
  const isUsage = error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'));
  // A data directory the operator must fix is one line too, with exit 1 (docs/storage.md).
  const isOneLine = isUsage || error instanceof DataDirectoryError;
  process.stderr.write(`datapoints: ${isOneLine ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(isUsage ? 2 : 1);
});
