// One request before the load: the scenario must answer what it claims to measure, and its
// answer size sets the size of the baselines' fixed answer.
import type { LoadShape } from './wrk.js';

export interface Preflight {
  status: number;
  bytes: number;
  body: string;
}

export async function preflight(
  url: string,
  shape: LoadShape,
  expectStatus: number,
  check?: (body: string) => string | undefined,
): Promise<Preflight> {
  const response = await fetch(url + shape.path, { method: 'POST', headers: shape.headers, body: shape.bodies[0] });
  const body = await response.text();
  if (response.status !== expectStatus)
    throw new Error(`preflight ${shape.path}: expected ${expectStatus}, got ${response.status}: ${body}`);
  const problem = check?.(body);
  if (problem) throw new Error(`preflight ${shape.path}: ${problem}: ${body.slice(0, 500)}`);
  return { status: response.status, bytes: Buffer.byteLength(body), body };
}

/** The answer is a 200 whose every entry has the given status. */
export const everyEntry = (status: string) => (body: string) => {
  const entries = (JSON.parse(body) as { data: Array<{ status: string }> }).data;
  const other = entries.find((entry) => entry.status !== status);
  return other ? `an entry is ${other.status}, not ${status}` : undefined;
};
