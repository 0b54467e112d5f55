// A data directory the service cannot use as asked: in use by another server, of another
// format, missing, a file, or holding another upstream's data. Its message is one line for the
// operator, who can act on it; the command line prints it alone and exits 1
// (docs/storage.md#what-the-command-line-may-do-while-a-server-runs).
export class DataDirectoryError extends Error {
  override readonly name = 'DataDirectoryError';
}
