#!/usr/bin/env node
// `npx datapoints <command>` (operator-interface.md).
import { accountsCommand } from './cli/accountCommands.js';
import { emulatorCommand, serveCommand } from './cli/serveCommands.js';
import { tokensCommand } from './cli/tokenCommands.js';
import { UsageError } from './cli/usageError.js';

const commands: Record<string, (args: string[], print: (line: string) => void) => Promise<void>> = {
  serve: serveCommand,
  emulator: emulatorCommand,
  accounts: accountsCommand,
  tokens: tokensCommand,
};

const usage = 'usage: datapoints serve|emulator|accounts create|show|tokens create|list|revoke ... (see README)';

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  const command = name === undefined ? undefined : commands[name];
  if (!command || !Object.hasOwn(commands, name!)) throw new UsageError(name === undefined ? usage : `unknown command '${name}'; ${usage}`);
  await command(args, (line) => process.stdout.write(line + '\n'));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // parseArgs reports unknown flags as TypeErrors with a code: they are usage errors too.
  const code = (error as { code?: unknown } | undefined)?.code;
  const isUsage = error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'));
  process.stderr.write(`datapoints: ${isUsage ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
  process.exit(isUsage ? 2 : 1);
});
