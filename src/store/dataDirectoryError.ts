// A data directory the service cannot use as asked; its message is one line the operator can act on,
// which the command line prints alone before it exits 1 (docs/storage.md#what-the-command-line-may-do-while-a-server-runs).
/** In use by another server, of another format, missing, a file, or holding another upstream's data. */
export class DataDirectoryError extends Error {
  override readonly name = 'DataDirectoryError';
}
