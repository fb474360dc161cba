/**
 * A fake bulk export (msw) that follows the API's rules: listings with an id greater
 * than `after`, in id order, one JSON object per line, each ended by `\n`. Each request
 * can be told to break: cut the connection after some lines (optionally in the middle of
 * the next one), end the body normally in the middle of a line, or stall.
 */
import { HttpResponse, delay, http } from 'msw';
import type { Listing } from '../src/types.js';
import { API, listing, problem, server } from './helpers.js';

/** What one request of the export does; a request beyond the script sends everything. */
export interface Step {
  /** Lines sent before the connection breaks (none: the whole export). */
  lines?: number;
  /** Also send the first half of the next line before breaking. */
  halfLine?: boolean;
  /** Break by ending the body normally (as a truncating proxy would) rather than with an error. */
  endNormally?: boolean;
  /** Instead of breaking, stop sending and leave the connection open. */
  stall?: boolean;
  /** Answer this instead of streaming (an error before the stream starts). */
  answer?: () => Response;
}

export const EXPORT_HEADERS = {
  'Content-Type': 'application/x-ndjson; charset=utf-8',
  'X-Quota-Limit': 'unlimited',
  'X-Quota-Remaining': 'unlimited',
  'X-Quota-Reset': '1796083200',
};

/** `count` listings with increasing ids, accents in the titles (multi-byte characters). */
export function exportItems(count: number): Listing[] {
  return Array.from({ length: count }, (_, i) => listing(i + 1, { title: `Appartement ${i + 1} à Bonamoussadi, Douala — vue dégagée` }));
}

/** Serves `items` through `script`, one step per request; returns each request's query and headers. */
export function serveExport(items: Listing[], script: Step[] = [], options: { chunkSize?: number; headers?: Record<string, string> } = {}) {
  const requests: { query: Record<string, string>; headers: Headers }[] = [];
  server.use(
    http.get(`${API}/exports/listings`, ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      requests.push({ query, headers: request.headers });
      const step = script[requests.length - 1] ?? {};
      if (step.answer) return step.answer();
      const after = query.after;
      const rows = items.filter((l) => after === undefined || l.id > after);
      const lines = rows.map((l) => `${JSON.stringify(l)}\n`);
      const sent = step.lines === undefined ? lines : lines.slice(0, step.lines);
      let text = sent.join('');
      const next = lines[sent.length];
      if (step.halfLine && next) text += next.slice(0, Math.floor(next.length / 2));
      const breaks = step.lines !== undefined;
      const bytes = new TextEncoder().encode(text);
      const size = options.chunkSize ?? 7;
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          // Small chunks, so lines and UTF-8 characters are cut across chunks.
          for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
          if (!breaks || step.endNormally) return controller.close();
          if (step.stall) return;
          await delay(5);
          controller.error(new TypeError('terminated: other side closed'));
        },
      });
      return new HttpResponse(stream, {
        headers: { ...EXPORT_HEADERS, 'X-Request-Id': `req_export_${requests.length}`, ...options.headers },
      });
    }),
  );
  return { requests };
}

/** A problem+json answer before the stream starts, as a step. */
export const fails = (status: number, code: Parameters<typeof problem>[1], extra: Parameters<typeof problem>[2] = {}): Step => ({
  answer: () => problem(status, code, extra),
});

/** Collects every listing of an iterable. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
