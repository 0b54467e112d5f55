// A look at the data file before LMDB maps it (docs/storage.md#damaged-data-file). LMDB trusts
// the file it maps: a page it reads past the end of a cut file, or a page number read from
// garbage, ends the process with SIGBUS or SIGSEGV and not a word. So the file's frame is read
// here with plain reads first: its size, its meta pages and the root pages they point to.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** The data file is not one LMDB wrote, or not all of it; the message says what was found. */
export class DamagedDataFile extends Error {
  override readonly name = 'DamagedDataFile';
}

// The layout of LMDB's pages as its mdb.c lays them out on a 64-bit machine (MDB_page_header,
// MDB_meta, MDB_db, MDB_node; little-endian).
const pageHeader = { pageNumber: 0, flags: 18, lower: 20, size: 24 } as const;
const pageFlags = { branch: 0x01, leaf: 0x02, meta: 0x08 } as const;
const meta = { magic: 24, version: 28, freeTree: 48, mainTree: 96, lastPage: 144, transaction: 152, end: 160 } as const;
/** Within an MDB_db record: the first field holds the page size in the free tree's record. */
const tree = { pageSize: 0, root: 40, size: 48 } as const;
const lmdbMagic = 0xbeefc0de;
const lmdbDataVersion = 2;
const noPage = 0xffff_ffff_ffff_ffffn;
/** A node of a leaf page whose value is a named database's MDB_db record. */
const subDatabaseNode = 0x02;
const nodeHeaderSize = 8;
/** The page sizes LMDB accepts (mdb_env_set_pagesize: 256 to 64 KiB). */
const pageSizeBounds = { min: 256, max: 65536 } as const;

interface MetaPage {
  pageSize: number;
  lastPage: bigint;
  transaction: bigint;
  /** The roots of LMDB's two own trees: the free pages' and the main one, which lists the named databases. */
  freeRoot: bigint | undefined;
  mainRoot: bigint | undefined;
}

/**
 * Throws a DamagedDataFile when the file at `path` cannot be an LMDB data file whose committed
 * state is all there. A missing file is fine (a new store); anything but a regular file is left
 * to LMDB, which refuses it with an error of its own.
 */
export function checkDataFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return;
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isFile()) checkFrame(fd, stat.size);
  } finally {
    closeSync(fd);
  }
}

function checkFrame(fd: number, size: number): void {
  // LMDB writes both meta pages when it creates the file, before anything else can use it.
  if (size === 0)
    throw new DamagedDataFile(
      'datapoints.mdb is empty (0 bytes), and LMDB never leaves its data file empty once created: it was cut short or made by something else (only a missing file starts a new store)',
    );
  const first = readMeta(read(fd, 0, Math.min(size, meta.end)), 0);
  if (typeof first === 'string') throw new DamagedDataFile(`datapoints.mdb is not an LMDB data file: its first meta page ${first}`);
  const { pageSize } = first;
  if (size < 2 * pageSize)
    throw new DamagedDataFile(`datapoints.mdb is cut short: ${size} bytes, less than LMDB's two meta pages of ${pageSize} bytes`);
  // LMDB writes whole pages only; a part of one means the file was cut or written over.
  if (size % pageSize !== 0)
    throw new DamagedDataFile(`datapoints.mdb is cut short: ${size} bytes is not a whole number of ${pageSize}-byte pages`);
  const second = readMeta(read(fd, pageSize, meta.end), 1);
  // LMDB opens the state of the newer meta page; the other may be any older one, or torn.
  const newest = typeof second !== 'string' && second.transaction > first.transaction ? second : first;
  const pages = BigInt(size / pageSize);
  if (newest.freeRoot !== undefined) checkRoot(fd, newest.freeRoot, newest, pages);
  if (newest.mainRoot === undefined) return;
  checkRoot(fd, newest.mainRoot, newest, pages);
  for (const root of namedRoots(fd, newest.mainRoot, pageSize)) checkRoot(fd, root, newest, pages);
}

/** The meta page's fields, or what is wrong with it. */
function readMeta(bytes: Buffer, pageNumber: number): MetaPage | string {
  if (bytes.length < meta.end) return 'is cut short';
  if (bytes.readBigUInt64LE(pageHeader.pageNumber) !== BigInt(pageNumber) || !(bytes.readUInt16LE(pageHeader.flags) & pageFlags.meta))
    return 'is not marked as one';
  if (bytes.readUInt32LE(meta.magic) !== lmdbMagic) return "lacks LMDB's magic number";
  const version = bytes.readUInt32LE(meta.version) & 0xffff;
  if (version !== lmdbDataVersion) return `has LMDB data version ${version}, not ${lmdbDataVersion}`;
  const pageSize = bytes.readUInt32LE(meta.freeTree + tree.pageSize);
  if (pageSize < pageSizeBounds.min || pageSize > pageSizeBounds.max || (pageSize & (pageSize - 1)) !== 0)
    return `names a page size of ${pageSize} bytes`;
  const root = (at: number) => {
    const page = bytes.readBigUInt64LE(at + tree.root);
    return page === noPage ? undefined : page;
  };
  return {
    pageSize,
    freeRoot: root(meta.freeTree),
    mainRoot: root(meta.mainTree),
    lastPage: bytes.readBigUInt64LE(meta.lastPage),
    transaction: bytes.readBigUInt64LE(meta.transaction),
  };
}

/**
 * A root page the newest meta page points to must be one LMDB wrote: a page it committed is in
 * the file. (The file may end before `lastPage`, which also counts pages freed unwritten, so
 * that alone proves nothing.)
 */
function checkRoot(fd: number, root: bigint, newest: MetaPage, pages: bigint): void {
  if (root < 2n || root > newest.lastPage)
    throw new DamagedDataFile(
      `datapoints.mdb is damaged: its meta page names root page ${root}, outside the pages in use (2 to ${newest.lastPage})`,
    );
  if (root >= pages)
    throw new DamagedDataFile(
      `datapoints.mdb is cut short: its meta page names root page ${root}, but the file holds only pages 0 to ${pages - 1n}`,
    );
  const header = read(fd, Number(root) * newest.pageSize, pageHeader.size);
  const flags = header.readUInt16LE(pageHeader.flags);
  if (header.readBigUInt64LE(pageHeader.pageNumber) !== root || !(flags & (pageFlags.branch | pageFlags.leaf))) {
    throw new DamagedDataFile(`datapoints.mdb is damaged: page ${root}, a root of its data, does not hold a tree page`);
  }
}

/** The roots of the named databases, kept as the values of the main tree (when one leaf holds them all). */
function namedRoots(fd: number, mainRoot: bigint, pageSize: number): bigint[] {
  const page = read(fd, Number(mainRoot) * pageSize, pageSize);
  if (!(page.readUInt16LE(pageHeader.flags) & pageFlags.leaf)) return [];
  const count = page.readUInt16LE(pageHeader.lower) >> 1;
  const roots: bigint[] = [];
  for (let index = 0; index < count; index++) {
    const node = pageHeader.size + page.readUInt16LE(pageHeader.size + 2 * index);
    if (node + nodeHeaderSize > pageSize)
      throw new DamagedDataFile(`datapoints.mdb is damaged: page ${mainRoot}, the list of its databases, points outside itself`);
    const value = node + nodeHeaderSize + page.readUInt16LE(node + 6);
    if (!(page.readUInt16LE(node + 4) & subDatabaseNode)) continue;
    if (value + tree.size > pageSize)
      throw new DamagedDataFile(`datapoints.mdb is damaged: page ${mainRoot}, the list of its databases, points outside itself`);
    const root = page.readBigUInt64LE(value + tree.root);
    if (root !== noPage) roots.push(root);
  }
  return roots;
}

function read(fd: number, position: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  const got = readSync(fd, bytes, 0, length, position);
  return bytes.subarray(0, got);
}
