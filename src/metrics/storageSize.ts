// The size of the LMDB environment, from its own statistics (docs/operations-endpoints.md#metrics).
// lmdb-js types those statistics as `{}`, so their fields are checked, not assumed.

/** The LMDB root database, as far as its size is concerned. */
export interface StatsSource {
  getStats(): unknown;
}

export interface StorageSize {
  /** Bytes up to the highest page in use: what the data file holds, free pages inside it included. */
  usedBytes: number;
  /** The most the environment may grow to. */
  mapBytes: number;
}

/** The size now; undefined when the environment is closed or its statistics lack the fields. */
export function storageSize(source: StatsSource): StorageSize | undefined {
  let stats: unknown;
  try {
    stats = source.getStats();
  } catch {
    return undefined;
  }
  if (
    typeof stats !== 'object' ||
    stats === null ||
    !('pageSize' in stats) ||
    typeof stats.pageSize !== 'number' ||
    !('lastPageNumber' in stats) ||
    typeof stats.lastPageNumber !== 'number' ||
    !('mapSize' in stats) ||
    typeof stats.mapSize !== 'number'
  ) {
    return undefined;
  }
  return { usedBytes: (stats.lastPageNumber + 1) * stats.pageSize, mapBytes: stats.mapSize };
}
