// Where a search or history answer is assembled as UTF-8 (docs/history.md#daily-answers-from-text,
// bench/README.md#cost-account): one buffer every answer of the thread reuses.

/** Below this many characters, a loop stores text faster than Buffer.write is called. */
const shortText = 256;

/**
 * An answer costs copies into this buffer, not an allocation per answer nor a string uWS would
 * flatten and encode again. An answer is many short pieces (references, statuses, names around
 * kept bytes): Node's Buffer.write and Buffer.copy spend more on their arguments than on a short
 * piece, so short ASCII text is stored a character at a time and bytes are copied with the typed
 * array's own `set`.
 */
export class AnswerBytes {
  private buffer: Buffer;
  private at = 0;

  constructor(firstSize: number) {
    this.buffer = Buffer.allocUnsafeSlow(firstSize);
  }

  /** Starts an answer, dropping the last one. */
  begin(): void {
    this.at = 0;
  }

  /** Adds text after what is written, as UTF-8. */
  write(text: string): void {
    const length = text.length;
    this.room(3 * length);
    if (length < shortText) {
      const { buffer, at } = this;
      let index = 0;
      for (; index < length; index++) {
        const code = text.charCodeAt(index);
        if (code >= 0x80) break;
        buffer[at + index] = code;
      }
      // All ASCII (names, numbers, dates): stored as it is; else the whole text goes through Buffer.write.
      if (index === length) {
        this.at += length;
        return;
      }
    }
    this.at += this.buffer.write(text, this.at);
  }

  /** Adds the bytes `start` to `end` of `source` (all of them by default) after what is written. */
  copy(source: Uint8Array, start = 0, end = source.length): void {
    this.room(end - start);
    // A plain Uint8Array view: Buffer's own subarray costs more than the copy of a short piece.
    const bytes = start === 0 && end === source.length ? source : new Uint8Array(source.buffer, source.byteOffset + start, end - start);
    this.buffer.set(bytes, this.at);
    this.at += end - start;
  }

  /** How many bytes the answer has so far. */
  get written(): number {
    return this.at;
  }

  /** A copy of the answer's bytes from `start` on, to keep past this answer. */
  keep(start: number): Buffer {
    return Buffer.from(this.buffer.subarray(start, this.at));
  }

  /** The answer: a view of the reused buffer, valid until the next `begin`: write it before then. */
  end(): Buffer {
    return this.buffer.subarray(0, this.at);
  }

  /** Makes room for `bytes` more, keeping what is written. */
  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafeSlow(2 * (this.at + bytes));
    this.buffer.copy(larger, 0, 0, this.at);
    this.buffer = larger;
  }
}
