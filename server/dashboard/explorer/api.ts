/**
 * The explorer's calls: the same `/api/v1` endpoints as a customer's code, with the
 * page's `X-Mboa-Explorer` credential instead of a key (uncounted, limited per session;
 * server/api/explorer.ts). JSON answers are kept for the page's life, so going back to a
 * view costs nothing; refusals are not kept.
 */
import type { TProblem } from '../../../contract/errors.js';

export type Query = Record<string, string | number | null | undefined>;

export type Answer<T> =
  { ok: true; body: T; dataset: string } | { ok: false; problem: Pick<TProblem, 'status' | 'code' | 'title' | 'detail'> };

/** The path and query of an API call, parameters in the order given, empty ones left out. */
export function apiPath(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== null && value !== undefined && value !== '') params.set(name, String(value));
  const q = params.toString();
  return `/api/v1${path}${q ? `?${q}` : ''}`;
}

export class Api {
  private readonly kept = new Map<string, Promise<Answer<unknown>>>();

  constructor(private readonly credential: string) {}

  json<T>(path: string, query: Query, options: { preview?: boolean } = {}): Promise<Answer<T>> {
    const url = apiPath(path, query);
    const id = `${options.preview ? 'preview ' : ''}${url}`;
    const hit = this.kept.get(id);
    if (hit) return hit as Promise<Answer<T>>;
    const answer = this.call(url, 'application/json', options.preview === true).then(async (res) => {
      if (!res.ok) return this.refusal(res);
      return { ok: true as const, body: (await res.json()) as T, dataset: res.headers.get('x-mboa-dataset') ?? 'live' };
    });
    this.kept.set(id, answer);
    void answer.then(
      (a) => a.ok || this.kept.delete(id),
      () => this.kept.delete(id),
    );
    return answer;
  }

  /** A text answer (the history's CSV), never kept. */
  async text(path: string, query: Query, accept: string): Promise<Answer<string>> {
    const res = await this.call(apiPath(path, query), accept, false);
    if (!res.ok) return this.refusal(res);
    return { ok: true, body: await res.text(), dataset: res.headers.get('x-mboa-dataset') ?? 'live' };
  }

  private call(url: string, accept: string, preview: boolean): Promise<Response> {
    return fetch(url, {
      headers: { Accept: accept, 'X-Mboa-Explorer': preview ? `${this.credential}.preview` : this.credential },
      credentials: 'omit',
      cache: 'no-store',
    });
  }

  private async refusal(res: Response): Promise<Answer<never>> {
    try {
      const p = (await res.json()) as TProblem;
      return { ok: false, problem: { status: res.status, code: p.code, title: p.title, detail: p.detail } };
    } catch {
      return { ok: false, problem: { status: res.status, code: 'internal_error', title: res.statusText, detail: res.statusText } };
    }
  }
}
