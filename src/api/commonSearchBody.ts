// Reads a search body of the shape nearly every client sends without JSON.parse, in under half its
// time (bench/README.md#cost-account); any other body is left to JSON.parse and the full validation.
import { limits } from '../config.js';

/** JSON's whitespace (RFC 8259): space, tab, line feed, carriage return. */
const space = '[ \\t\\n\\r]*';
/** A string whose content is exactly the text between its quotes: no escape, no control character. */
const plainString = '"([^"\\\\\\x00-\\x1f]+)"';
const member = (name: string) => `${space}"${name}"${space}:${space}${plainString}${space}`;

const opening = new RegExp(`${space}\\{${space}"resources"${space}:${space}\\[`, 'y');
/** One reference, and the `,` or `]` after it. */
const reference = new RegExp(`${space}\\{${member('platform')},${member('type')},${member('identifier')}\\}${space}([,\\]])`, 'y');
const closing = new RegExp(`${space}\\}${space}$`, 'y');

/** platform, type and identifier of each reference in turn, reused by every read. */
const fields: string[] = [];

/**
 * The fields of a body of the common shape, as a flat list (platform, type, identifier of the
 * first reference, then of the next...), valid until the next call; undefined for any other body.
 * The common shape: one object whose only member is `resources`, an array of 1-10 objects with
 * exactly `platform`, `type` and `identifier` in that order (as the API documents them), all
 * non-empty strings without escapes, with JSON's whitespace anywhere between tokens. Anything else
 * (an escape, another member or order, a number, a syntax error) goes to JSON.parse and the full
 * validation, which alone words the 422s (docs/api.md#errors): this reader only has to be right
 * about what it accepts, and what it accepts JSON.parse reads to the same strings. Compiled
 * regular expressions make no objects to check and collect afterwards; a hand-written scanner was
 * no faster than JSON.parse.
 */
export function commonSearchFields(body: string): readonly string[] | undefined {
  opening.lastIndex = 0;
  if (!opening.test(body)) return undefined;
  fields.length = 0;
  reference.lastIndex = opening.lastIndex;
  for (let count = 0; count < limits.maxResourcesPerRequest; count++) {
    const match = reference.exec(body);
    if (match === null) return undefined;
    fields.push(match[1]!, match[2]!, match[3]!);
    if (match[4] === ']') {
      closing.lastIndex = reference.lastIndex;
      return closing.test(body) ? fields : undefined;
    }
  }
  return undefined;
}
