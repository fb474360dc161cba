/**
 * The headers of an API answer, gathered while the request goes through the chain and
 * written with the status line by one `writeHead`. Node's `setHeader` checks, lower-cases
 * and stores each header on its own: for the dozen headers of an API answer that was about
 * 9 µs of CPU a call (bench/README.md); a flat list handed to `writeHead` is checked once,
 * as it is written. Headers set on the response itself meanwhile (a shutdown's
 * `Connection: close`) are kept: Node merges both.
 */
import type { ServerResponse } from 'node:http';

export class AnswerHeaders {
  /** Name, value, name, value... as `writeHead` takes them. */
  private readonly list: string[] = [];

  /** Sets a header, replacing one set before under the same name (as a response's own `setHeader`). */
  setHeader(name: string, value: string): void {
    for (let i = 0; i < this.list.length; i += 2) {
      if (this.list[i] === name) {
        this.list[i + 1] = value;
        return;
      }
    }
    this.list.push(name, value);
  }

  /** Writes the status line and the headers: these, then `last` (name, value...). */
  writeHead(res: ServerResponse, status: number, ...last: string[]): void {
    for (let i = 0; i < last.length; i += 2) this.setHeader(last[i], last[i + 1]);
    res.writeHead(status, this.list);
  }

  /** Puts them on the response itself, for a handler that writes its answer as a stream. */
  applyTo(res: ServerResponse): void {
    for (let i = 0; i < this.list.length; i += 2) res.setHeader(this.list[i], this.list[i + 1]);
  }
}
