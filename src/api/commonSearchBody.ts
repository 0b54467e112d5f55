// Reads a search body of the shape nearly every client sends, without JSON.parse: one object
// whose only member is `resources`, an array of 1-10 objects whose only members are `platform`,
// `type` and `identifier` (once each, in any order), all strings without escapes, with JSON's
// whitespace anywhere between tokens. Anything else (an escape, another member, a duplicate, a
// number, a syntax error) is left to JSON.parse and the full validation, which alone words the
// 422s (docs/api.md#errors): so this reader only needs to be right about what it accepts, and
// what it accepts JSON.parse would read to the same strings (bench/README.md, "Cost account":
// JSON.parse and its objects were the largest part of validation).
import { limits } from '../config.js';

const quote = 0x22;
const comma = 0x2c;
const colon = 0x3a;
const openArray = 0x5b;
const closeArray = 0x5d;
const openObject = 0x7b;
const closeObject = 0x7d;

/** The body being read and where; module state, so a read allocates only the strings it returns. */
let text = '';
let at = 0;
/** platform, type and identifier of each reference in turn, reused by every read. */
const fields: string[] = [];

/**
 * The fields of a body of the common shape, as a flat list (platform, type, identifier of the
 * first reference, then of the next...), valid until the next call; undefined for any other body.
 */
export function commonSearchFields(body: string): readonly string[] | undefined {
  // No escapes anywhere: every string's content is then exactly the text between its quotes.
  if (body.indexOf('\\') !== -1) return undefined;
  text = body;
  at = 0;
  fields.length = 0;
  const read =
    take(openObject) &&
    key('"resources"') &&
    take(colon) &&
    take(openArray) &&
    references() &&
    take(closeArray) &&
    take(closeObject) &&
    atEnd();
  text = '';
  return read ? fields : undefined;
}

/** 1 to limits.maxResourcesPerRequest references separated by commas. */
function references(): boolean {
  for (let count = 1; count <= limits.maxResourcesPerRequest; count++) {
    if (!reference()) return false;
    skipSpace();
    if (text.charCodeAt(at) !== comma) return true;
    at++;
  }
  return false;
}

/** `{` three members `}`: each of the three names once, in any order. */
function reference(): boolean {
  if (!take(openObject)) return false;
  const first = fields.length;
  fields.push('', '', '');
  for (let member = 0; member < 3; member++) {
    if (member > 0 && !take(comma)) return false;
    skipSpace();
    const slot = memberSlot();
    if (slot < 0 || fields[first + slot] !== '' || !take(colon)) return false;
    const value = stringValue();
    // An empty value is left to the full validation, which says it can't be blank.
    if (value === undefined || value === '') return false;
    fields[first + slot] = value;
  }
  return take(closeObject);
}

/** 0, 1 or 2 for `"platform"`, `"type"` or `"identifier"` at `at` (which it then passes), -1 otherwise. */
function memberSlot(): number {
  if (key('"platform"')) return 0;
  if (key('"type"')) return 1;
  if (key('"identifier"')) return 2;
  return -1;
}

function key(quoted: string): boolean {
  skipSpace();
  if (!text.startsWith(quoted, at)) return false;
  at += quoted.length;
  return true;
}

/** A string's content; undefined when there is no string here or it holds a control character (not JSON). */
function stringValue(): string | undefined {
  skipSpace();
  if (text.charCodeAt(at) !== quote) return undefined;
  const end = text.indexOf('"', at + 1);
  if (end < 0) return undefined;
  for (let index = at + 1; index < end; index++) if (text.charCodeAt(index) < 0x20) return undefined;
  const value = text.slice(at + 1, end);
  at = end + 1;
  return value;
}

/** Nothing but whitespace left. */
function atEnd(): boolean {
  skipSpace();
  return at === text.length;
}

function take(char: number): boolean {
  skipSpace();
  if (text.charCodeAt(at) !== char) return false;
  at++;
  return true;
}

/** JSON's whitespace (RFC 8259): space, tab, line feed, carriage return. */
function skipSpace(): void {
  for (;;) {
    const char = text.charCodeAt(at);
    if (char !== 0x20 && char !== 0x09 && char !== 0x0a && char !== 0x0d) return;
    at++;
  }
}
