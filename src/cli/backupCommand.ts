// `datapoints backup DIR` (docs/operations.md#backup): a hot copy of the data store. LMDB
// copies the environment inside one read transaction, so the copy is one consistent moment of
// the store, taken while a server keeps reading and writing it.
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { dataDirSetting, dataFlag, firstLine, withDataStore } from './dataStore.js';
import { noMorePositionals, parseFlags } from './flags.js';
import { CommandFailure, errorCode, UsageError } from '../usageError.js';

/** A target that holds anything is refused: a backup never mixes with or overwrites other files. */
function checkTarget(target: string): void {
  let entries: string[];
  try {
    if (!statSync(target).isDirectory()) throw new UsageError(`backup target '${target}' is a file; give a new or empty directory`);
    entries = readdirSync(target);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  if (entries.length > 0) throw new UsageError(`backup target '${target}' is not empty; give a new or empty directory`);
}

export async function backupCommand(args: string[], print: (line: string) => void): Promise<void> {
  const { values, positionals } = parseFlags('backup', args, dataFlag);
  noMorePositionals('backup', positionals, 1);
  const target = positionals[0];
  if (target === undefined) throw new UsageError('backup needs a target DIR');
  checkTarget(target);
  const source = dataDirSetting(values.data);
  await withDataStore(source, 'existing', async (dbs) => {
    try {
      mkdirSync(target, { recursive: true });
      // The file name the store opens (src/store/environment.ts), so `--data DIR` opens the copy.
      await dbs.root.backup(join(target, 'datapoints.mdb'), false);
    } catch (error) {
      throw new CommandFailure(`backup into '${target}' failed: ${firstLine(error)}`);
    }
  });
  print(`backed up ${source.text} into ${target}`);
}
