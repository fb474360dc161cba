/** Home: this month's calls (used, remaining, reset), the plan, the keys, a first call. */
import { PLANS } from '../../../contract/plans.js';
import type { UsageView } from '../../accounts/usage.js';
import { formatDay, formatNumber, formatXaf } from '../../platform/format.js';
import { html, type SafeHtml } from '../../platform/html.js';
import type { Lang } from '../../platform/lang.js';
import { t } from '../i18n.js';
import { suspendedText } from '../labels.js';
import { csrfField, page, type View } from './layout.js';
import { copyButton } from './parts.js';

/** A horizontal gauge drawn in SVG (no inline styles: the page's CSP forbids them). */
function gauge(lang: Lang, used: number, limit: number): SafeHtml {
  const ratio = limit > 0 ? Math.min(1, used / limit) : 1;
  const pct = Math.round(ratio * 1000) / 10;
  const level = ratio >= 0.9 ? 'high' : ratio >= 0.75 ? 'mid' : 'low';
  const label = t(lang, 'home.usage.meter', { pct: formatNumber(lang, Math.floor(pct)) });
  return html`<svg class="gauge gauge-${level}" viewBox="0 0 100 6" preserveAspectRatio="none" role="img" aria-label="${label}"><rect class="gauge-track" x="0" y="0" width="100" height="6" rx="3"></rect><rect class="gauge-fill" x="0" y="0" width="${pct.toFixed(1)}" height="6" rx="3"></rect></svg>`;
}

/** Upgrade invitation shown where Pro's analytics would be, built from the plans. */
export function upgradeInvite(v: View): SafeHtml {
  const { lang } = v;
  const pro = PLANS.pro;
  return html`<section class="card invite" data-testid="upgrade-invite">
<h2>${t(lang, 'upgrade.title')}</h2>
<p>${t(lang, 'upgrade.text', {
    quota: formatNumber(lang, pro.monthlyQuota ?? 0),
    rate: formatNumber(lang, pro.ratePerMinute ?? 0),
    price: formatXaf(lang, pro.priceXafPerMonth),
  })}</p>
<a class="btn btn-primary" href="${v.base}/plans">${t(lang, 'upgrade.button')}</a>
</section>`;
}

export function homePage(v: View, o: { usage: UsageView; activeKeys: number; company: string }): SafeHtml {
  const { lang } = v;
  const account = v.account!;
  const plan = PLANS[o.usage.plan];
  const u = o.usage;
  const resets = t(lang, 'home.usage.resetsAt', { date: formatDay(lang, new Date(u.resets_at)) });
  const usageCard = html`<section class="card usage-card" aria-labelledby="usage-title">
<h2 id="usage-title">${t(lang, 'home.usage.title')}</h2>
<p class="big" data-testid="usage-used" data-used="${u.used}">${
    u.limit === null
      ? t(lang, 'home.usage.unlimited', { used: formatNumber(lang, u.used) })
      : t(lang, 'home.usage.of', { used: formatNumber(lang, u.used), limit: formatNumber(lang, u.limit) })
  }</p>
${u.limit === null ? '' : gauge(lang, u.used, u.limit)}
<dl class="stats">
<div><dt>${t(lang, 'home.usage.remaining')}</dt><dd data-testid="usage-remaining">${u.remaining === null ? t(lang, 'unlimited.calls') : formatNumber(lang, u.remaining)}</dd></div>
<div><dt>${t(lang, 'home.usage.resets')}</dt><dd data-testid="usage-resets">${resets}</dd></div>
<div><dt>${t(lang, 'home.rate')}</dt><dd>${
    plan.ratePerMinute === null && account.rateLimitOverride === null
      ? t(lang, 'unlimited.calls')
      : t(lang, 'plans.perMinute', { n: formatNumber(lang, account.rateLimitOverride ?? plan.ratePerMinute ?? 0) })
  }</dd></div>
</dl>
<p class="hint">${t(lang, 'home.usage.counted')}</p>
${plan.usageAnalytics ? html`<p><a href="${v.base}/usage">${t(lang, 'home.analytics.link')} →</a></p>` : ''}
</section>`;

  const planCard = html`<section class="card" aria-labelledby="plan-title">
<h2 id="plan-title">${t(lang, 'home.plan.title')}</h2>
<p class="big">${plan.label}</p>
<p>${t(lang, 'home.plan.price', { price: formatXaf(lang, plan.priceXafPerMonth) })}</p>
<a class="btn" href="${v.base}/plans">${t(lang, 'home.plan.change')}</a>
</section>`;

  const keysCard = html`<section class="card" aria-labelledby="keys-title">
<h2 id="keys-title">${t(lang, 'home.keys.title')}</h2>
<p class="big">${
    plan.maxKeys === null
      ? t(lang, 'home.keys.countUnlimited', { active: o.activeKeys })
      : t(lang, 'home.keys.count', { active: o.activeKeys, max: plan.maxKeys })
  }</p>
<a class="btn" href="${v.base}/keys">${t(lang, 'home.keys.manage')}</a>
</section>`;

  const curl = `curl -H "X-API-Key: $MBOA_API_KEY" "${v.origin}/api/v1/listings?city=Douala&limit=5"`;
  const quickstart = html`<section class="card" aria-labelledby="qs-title">
<h2 id="qs-title">${t(lang, 'quickstart.title')}</h2>
<p>${t(lang, 'quickstart.lead')}</p>
<div class="code-box"><pre class="code"><code id="home-call">${curl}</code></pre>${copyButton(lang, 'home-call')}</div>
<p class="hint">${t(lang, 'quickstart.docs')} <a href="/docs">${v.origin}/docs</a></p>
</section>`;

  const verify = account.emailVerifiedAt
    ? ''
    : html`<div class="notice notice-info" role="status" data-testid="verify-pending"><p>${t(lang, 'verify.pending', { email: account.email })}</p>
<form method="post" action="${v.base}/verify/resend">${csrfField(v)}<button type="submit" class="btn btn-small">${t(lang, 'verify.resend')}</button></form></div>`;
  const body = html`<h1>${o.company}</h1>
${verify}
${account.status === 'suspended' ? html`<div class="notice notice-error" role="alert" data-testid="suspended">${suspendedText(lang, account)}</div>` : ''}
<div class="grid">
${usageCard}
<div class="stack">${planCard}${keysCard}</div>
</div>
${plan.usageAnalytics ? '' : upgradeInvite(v)}
${quickstart}`;
  return page(v, { title: t(lang, 'home.title'), section: 'home', body });
}
