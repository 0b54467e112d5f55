// Replies the JSON platforms' emulator handlers share: a JSON body under the platform's
// content type, the cut-off body of the `malformed` mode, and the choice of a resource's reply
// by its mode (docs/operations.md#emulator).
import type { EmulatedCounts, EmulatedResource, EmulatorReply } from './emulatorContract.js';

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

/** A platform's own answers for the modes of a resource that is not answered normally. */
export type FaultReplies = Readonly<Record<Exclude<EmulatedResource['mode'], 'normal'>, EmulatorReply>>;

/** One resource's reply: its mode's fault reply, or a JSON 200 of the body `found` builds from its counts. */
export const replyByMode = (resource: EmulatedResource, faults: FaultReplies, found: (counts: EmulatedCounts) => unknown): EmulatorReply =>
  resource.mode === 'normal' ? jsonReply(200, found(resource.counts)) : faults[resource.mode];
