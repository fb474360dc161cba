/** Numbers, money and dates as each language writes them. Dates are UTC, as billing and quotas are. */
import type { Lang } from './lang.js';

const LOCALE: Record<Lang, string> = { fr: 'fr-FR', en: 'en-GB' };

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function numberFormat(lang: Lang): Intl.NumberFormat {
  const key = `n:${lang}`;
  if (!cache.has(key)) cache.set(key, new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 0 }));
  return cache.get(key) as Intl.NumberFormat;
}
function dateFormat(lang: Lang, kind: 'day' | 'dayTime' | 'month' | 'short'): Intl.DateTimeFormat {
  const key = `d:${lang}:${kind}`;
  if (!cache.has(key)) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'day'
        ? { day: 'numeric', month: 'long', year: 'numeric' }
        : kind === 'dayTime'
          ? { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
          : kind === 'month'
            ? { month: 'long', year: 'numeric' }
            : { day: 'numeric', month: 'short' };
    cache.set(key, new Intl.DateTimeFormat(LOCALE[lang], { ...options, timeZone: 'UTC' }));
  }
  return cache.get(key) as Intl.DateTimeFormat;
}

export function formatNumber(lang: Lang, value: number): string {
  return numberFormat(lang).format(value);
}

/** `67 %` in French, `67%` in English. */
export function formatPercent(lang: Lang, ratio: number): string {
  const key = `p:${lang}`;
  if (!cache.has(key)) cache.set(key, new Intl.NumberFormat(LOCALE[lang], { style: 'percent', maximumFractionDigits: 0 }));
  return (cache.get(key) as Intl.NumberFormat).format(ratio);
}

/** `50 000 FCFA`, as the plans table writes prices. */
export function formatXaf(lang: Lang, value: number): string {
  return `${formatNumber(lang, value)}\u00a0FCFA`;
}

export function formatDay(lang: Lang, date: Date): string {
  return dateFormat(lang, 'day').format(date);
}

export function formatDayTime(lang: Lang, date: Date): string {
  return `${dateFormat(lang, 'dayTime').format(date)} UTC`;
}

export function formatShortDay(lang: Lang, date: Date): string {
  return dateFormat(lang, 'short').format(date);
}

/** `YYYY-MM` → `mars 2026` / `March 2026`. */
export function formatMonth(lang: Lang, month: string): string {
  const [y, m] = month.split('-').map(Number);
  return dateFormat(lang, 'month').format(new Date(Date.UTC(y, m - 1, 1)));
}

/** `YYYY-MM-DD` → a Date at 00:00 UTC. */
export function dayDate(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}
