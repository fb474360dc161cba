/**
 * The languages Mboa speaks to its customers (Cameroon is bilingual: French and English)
 * and how a request's language is chosen. Shared by the dashboard, the e-mails and the
 * invoices, so it depends on none of them.
 */
export const LANGS = ['fr', 'en'] as const;
export type Lang = (typeof LANGS)[number];

export function isLang(value: unknown): value is Lang {
  return value === 'fr' || value === 'en';
}

/** The saved choice, else the first of French or English an `Accept-Language` header asks for, else French. */
export function pickLang(saved: string | undefined, acceptLanguage: string | undefined): Lang {
  if (isLang(saved)) return saved;
  const header = acceptLanguage ?? '';
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag, ...rest] = part.trim().toLowerCase().split(';');
      const q = rest.map((r) => /^q=([\d.]+)$/.exec(r.trim())?.[1]).find(Boolean);
      return { tag: tag.split('-')[0], q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => isLang(x.tag) && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked.length ? (ranked[0].tag as Lang) : 'fr';
}
