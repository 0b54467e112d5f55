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
