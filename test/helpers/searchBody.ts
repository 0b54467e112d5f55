// A search answer's 200 body as tests read it (docs/api.md#a-10): parsed JSON, given the shape the
// contract promises so that a test names the fields it checks.
export interface SearchEntry {
  platform: string;
  type: string;
  identifier: string;
  status: string;
  metrics?: Record<string, { value: number | boolean | null; collected_at: string }>;
}

export interface SearchBody {
  data: SearchEntry[];
}

/** `items` in the batches one search takes (docs/api.md#a-1: at most 10 references a request), in order. */
export function perSearch<T>(items: readonly T[], size = 10): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, index * size + size));
}
