// Where a daily history answer is assembled as UTF-8 (docs/history.md#daily-answers-from-text):
// one buffer every answer reuses, so an answer of ~90 KB costs copies, not an allocation and a
// string uWS would encode again. Short pieces (names, first, last, change) gather as text and
// are encoded together, in one call, before the next kept bytes are copied after them.

/** The most UTF-8 bytes one UTF-16 unit of a string can take. */
const maxBytesPerUnit = 3;

export class HistoryAnswerBytes {
  private buffer = Buffer.allocUnsafeSlow(131_072);
  private at = 0;
  private text = '';

  /** Starts an answer, dropping the last one. */
  begin(): void {
    this.at = 0;
    this.text = '';
  }

  /** Adds text after what is written (encoded with the next bytes, or at `end`). */
  write(text: string): void {
    this.text += text;
  }

  /** Adds bytes `start` to `end` of `source` after what is written (no view of them is made). */
  copy(source: Buffer, start: number, end: number): void {
    this.flush();
    this.room(end - start);
    this.at += source.copy(this.buffer, this.at, start, end);
  }

  /** The answer: a view of the reused buffer, valid until the next `begin`: write it before then. */
  end(): Buffer {
    this.flush();
    return this.buffer.subarray(0, this.at);
  }

  private flush(): void {
    if (this.text === '') return;
    this.room(maxBytesPerUnit * this.text.length);
    this.at += this.buffer.write(this.text, this.at);
    this.text = '';
  }

  /** Makes room for `bytes` more, keeping what is written. */
  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafeSlow(2 * (this.at + bytes));
    this.buffer.copy(larger, 0, 0, this.at);
    this.buffer = larger;
  }
}
