/**
 * The explorer script's words and numbers: messages from the page's catalogue (handed over
 * in its config, `{name}` parameters filled here), numbers and months as the page's
 * language writes them, amounts in whole XAF.
 */
import type { ExplorerConfig } from '../explorer-config.js';
import type { ClientMessageKey } from '../messages/market-client.js';

export type Say = (key: ClientMessageKey, params?: Record<string, string | number>) => string;

export interface Format {
  say: Say;
  number(value: number): string;
  /** `150 000 XAF`. */
  xaf(value: number): string;
  /** `150 k`, `1,2 M`: for axes and legends where space is short. */
  short(value: number): string;
  /** `+7,1 %`. */
  pct(value: number): string;
  /** `2026-10` → `oct. 2026`. */
  month(month: string): string;
}

export function formatFor(config: Pick<ExplorerConfig, 'lang' | 'messages'>): Format {
  const locale = config.lang === 'fr' ? 'fr-FR' : 'en-GB';
  const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const compact = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1, signDisplay: 'exceptZero' });
  const months = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const space = config.lang === 'fr' ? '\u00a0' : '';
  return {
    say: (key, params = {}) =>
      config.messages[key].replace(/\{(\w+)\}/g, (all, name: string) => (name in params ? String(params[name]) : all)),
    number: (value) => whole.format(value),
    xaf: (value) => `${whole.format(value)}\u00a0XAF`,
    short: (value) => compact.format(value),
    pct: (value) => `${percent.format(value)}${space}%`,
    month: (month) => months.format(new Date(`${month}-01T00:00:00Z`)),
  };
}

/** An element with attributes and children: the script builds its DOM with this, never with HTML strings. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | null | undefined> = {},
  ...children: Array<Node | string | null | undefined | false>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The same for SVG elements. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | null | undefined> = {},
  ...children: Array<Node | null | undefined>
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== null && value !== undefined) node.setAttribute(name, String(value));
  for (const child of children) if (child) node.append(child);
  return node;
}
