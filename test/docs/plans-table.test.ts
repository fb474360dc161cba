/** The API guide's plans table (docs/api.md) states contract/plans.ts, the one source of prices and limits. */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { PLAN_NAMES, PLANS } from '../../contract/plans.js';

const readme = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

/** `50 000` as the README writes amounts; `unlimited` for null. */
const amount = (n: number | null) => (n === null ? 'unlimited' : n.toLocaleString('en-US').replace(/,/g, ' '));

it('lists every plan with its price, quota, rate limit and key count', () => {
  // The plans table: the one whose header starts `| Plan | Price |` (other tables have a row per plan too).
  const lines = readme.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| Plan | Price |'));
  expect(header).toBeGreaterThan(0);
  const table = lines.slice(
    header + 2,
    lines.findIndex((line, i) => i > header && !line.startsWith('|')),
  );
  const rows = table.filter((line) => /^\| (Starter|Pro|Enterprise) \|/.test(line));
  expect(rows).toHaveLength(PLAN_NAMES.length);
  for (const name of PLAN_NAMES) {
    const plan = PLANS[name];
    const row = rows.find((r) => r.startsWith(`| ${plan.label} |`));
    expect(row, plan.label).toBeDefined();
    const cells = row!
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    const rate = plan.ratePerMinute === null ? 'unlimited' : `${amount(plan.ratePerMinute)} / minute`;
    expect(cells.slice(0, 5)).toEqual([plan.label, amount(plan.priceXafPerMonth), amount(plan.monthlyQuota), rate, amount(plan.maxKeys)]);
  }
});
