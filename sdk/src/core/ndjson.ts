/**
 * Splits a byte stream into complete NDJSON lines. Chunks cut lines (and UTF-8
 * characters) anywhere; only text up to a `\n` is a line. What follows the last `\n`
 * stays pending: when a stream breaks, that part is exactly what was never complete.
 */
export class LineSplitter {
  readonly #decoder = new TextDecoder('utf-8', { fatal: false });
  #pending = '';

  /** The complete lines that `chunk` finishes, without their `\n`. */
  push(chunk: Uint8Array): string[] {
    const text = this.#pending + this.#decoder.decode(chunk, { stream: true });
    const end = text.lastIndexOf('\n');
    if (end === -1) {
      this.#pending = text;
      return [];
    }
    this.#pending = text.slice(end + 1);
    return text.slice(0, end).split('\n');
  }

  /** Call once, when the body has ended: whether it ended in the middle of a line (truncated). */
  endsMidLine(): boolean {
    return this.#pending.length > 0 || this.#decoder.decode().length > 0;
  }
}
