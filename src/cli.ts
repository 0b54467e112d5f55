#!/usr/bin/env node
// `npx datapoints <command>` (docs/operations.md#commands): the process around runCli (src/cli/main.ts).
import { runCli } from './cli/main.js';

function endOnClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
  process.exit(141);
}

const argv = process.argv.slice(2);
// A reader that stops early (`| head`) closes the pipe: the command ends quietly with 141, as a
// Unix tool ended by SIGPIPE does, rather than with a stack (docs/operations.md#exit-codes).
// Not for the servers, whose output is their log: they stop on signals only.
if (argv[0] !== 'serve' && argv[0] !== 'emulator') process.stdout.on('error', endOnClosedPipe);
const status = await runCli(argv, process);
process.exitCode = status;
// A failed command ends at once, whatever it left open (a NATS connection, a timer).
if (status !== 0) process.exit();
