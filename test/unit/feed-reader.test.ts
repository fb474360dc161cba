/** The feed reader's reasons for rows it cannot read: the same on every Node, and never the row's text. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFeed } from '../../server/ingest/feed-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'mboa-feed-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function reasons(lines: string[]): Promise<string[]> {
  const file = join(dir, `feed-${Math.random().toString(36).slice(2)}.ndjson`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const out: string[] = [];
  for await (const rows of readFeed(file, 'ndjson')) for (const row of rows) if ('error' in row) out.push(row.error);
  return out;
}

describe('NDJSON rows that are not JSON', () => {
  it('are reported without the row’s text, whether V8 quotes it whole or cut short', async () => {
    const got = await reasons(['call 699001122 or agent@example.cm', 'x', '{"title": "Villa, owner +237 699 00 11 22']);
    expect(got).toEqual([
      "invalid JSON: unexpected character 'c'",
      "invalid JSON: unexpected character 'x'",
      'invalid JSON: Unterminated string in JSON at position 41',
    ]);
    for (const reason of got) expect(reason).not.toMatch(/699|example\.cm|owner/);
  });

  it('name the position in the row, without the line and column some Node versions add', async () => {
    expect(await reasons(['{"a": 1,}'])).toEqual(['invalid JSON: Expected double-quoted property name in JSON at position 8']);
  });
});
