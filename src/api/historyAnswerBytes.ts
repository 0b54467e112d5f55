// Where a daily history answer is assembled as UTF-8 (docs/history.md#daily-answers-from-text):
// one buffer every answer reuses, so an answer of ~90 KB costs copies, not an allocation and a
// string uWS would encode again. An answer is some 60 pieces (each series' kept days and the
// short text around them): Node's Buffer.write and Buffer.copy spend more on their arguments
// than on a short piece, so short ASCII text is stored a character at a time and bytes are
// copied with the typed array's own `set`.

/** Below this many characters, a loop stores text faster than Buffer.write is called. */
const shortText = 256;

export class HistoryAnswerBytes {
  private buffer = Buffer.allocUnsafeSlow(131_072);
  private at = 0;

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

  /** Adds bytes `start` to `end` of `source` after what is written. */
  copy(source: Uint8Array, start: number, end: number): void {
    this.room(end - start);
    this.buffer.set(new Uint8Array(source.buffer, source.byteOffset + start, end - start), this.at);
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
