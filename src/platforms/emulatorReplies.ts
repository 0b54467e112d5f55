// Replies the JSON platforms' emulator handlers share: a JSON body under the platform's
// content type, and the cut-off body of the `malformed` mode (docs/operations.md#emulator).
import type { EmulatorReply } from './emulatorContract.js';

/** A JSON answer; `headers` add to or replace the content type (platforms spell its charset differently). */
export const jsonReply = (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): EmulatorReply => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});

/** A 200 whose body stops after `start`, mid-object, as a dropped connection behind a proxy leaves it. */
export const cutOffJson = (start: string, contentType = 'application/json'): EmulatorReply => ({
  status: 200,
  headers: { 'content-type': contentType },
  body: start,
});
