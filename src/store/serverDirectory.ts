// The data directory as a server holds it: opened, claimed for this process alone, checked
// against the server's upstream, and given up again on a clean stop (docs/storage.md#one-server-per-data-directory and "Where the counts came from").
import { claimDataDirectory } from './dataDirectoryClaim.js';
import { openDatabases, type Databases, type UpstreamKind } from './environment.js';
import type { WriteFault } from './guardedWrites.js';
import { adoptUpstreamKind } from './upstreamKind.js';

export interface ServerDirectory {
  dbs: Databases;
  /** Releases the claim and closes the databases; call it once everything else has stopped. */
  close(): Promise<void>;
}

/** Throws a DataDirectoryError, having closed what it opened, when the directory is not this server's to use. */
export async function openServerDirectory(dataDir: string, upstream: UpstreamKind, writeFault?: WriteFault): Promise<ServerDirectory> {
  const dbs = openDatabases(dataDir, { writeFault });
  try {
    const claim = await claimDataDirectory(dbs);
    try {
      await adoptUpstreamKind(dbs, upstream);
    } catch (error) {
      await claim.release();
      throw error;
    }
    return {
      dbs,
      async close() {
        await claim.release();
        await dbs.root.close();
      },
    };
  } catch (error) {
    await dbs.root.close();
    throw error;
  }
}
