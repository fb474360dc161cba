/**
 * A listing's life on the market over the generator's three years: when it was published,
 * how long it stayed, how it ended (sold, rented, withdrawn) and the price cuts on the way.
 *
 * Publications grow toward `now` (portals gain users), so recent months are the fullest.
 * Time on market is drawn per advert, exponential around a mean that depends on what is
 * offered (a flat lets in months, a plot sells in a year or more), with a share of adverts
 * left up long after the deal (portals rarely remove them): the active stock turns over
 * while the series of a quarter keep a few hundred listings a month.
 */
import type { ListingStatus, PropertyType, Purpose } from './kinds.js';
import type { Random } from './random.js';

/** Every generated date falls in the 36 months (1,095 days) before the generation instant. */
const HISTORY_DAYS = 1_095;
const DAY = 86_400_000;

/** Mean days on the market before the advert ends. */
function meanDaysOnMarket(type: PropertyType, purpose: Purpose): number {
  if (purpose === 'furnished_rent') return 90;
  if (purpose === 'rent') return 150;
  return type === 'land' ? 540 : 360;
}
/** Adverts that stay up about four times as long (forgotten by their agent). */
const LINGERING = 0.15;

export interface Lifecycle {
  listedMs: number;
  status: ListingStatus;
  removedMs: number | null;
  /** Price cuts after the first price: when, and the factor applied (below 1). */
  cuts: { atMs: number; factor: number }[];
}

function endOf(rng: Random, purpose: Purpose): ListingStatus {
  if (purpose === 'sale') return rng.chance(0.55) ? 'sold' : 'withdrawn';
  return rng.chance(0.65) ? 'rented' : 'withdrawn';
}

export function drawLifecycle(rng: Random, type: PropertyType, purpose: Purpose, nowMs: number): Lifecycle {
  // Skewed toward the recent past: P(age < d) = (d / 1095)^0.75.
  const ageMs = Math.floor(HISTORY_DAYS * DAY * Math.pow(rng.next(), 1 / 0.75));
  const listedMs = nowMs - ageMs;
  const mean = meanDaysOnMarket(type, purpose) * (rng.chance(LINGERING) ? 4 : 1);
  const daysOnMarket = Math.max(2, -mean * Math.log(1 - rng.next()));
  const removedAt = listedMs + Math.floor(daysOnMarket * DAY);
  const removed = removedAt < nowMs;
  const status: ListingStatus = removed ? endOf(rng, purpose) : 'active';
  const removedMs = removed ? removedAt : null;
  const endMs = removedMs ?? nowMs;

  // Price cuts: one advert in five on the market three weeks or more (sales more often).
  const cuts: Lifecycle['cuts'] = [];
  if (endMs - listedMs >= 21 * DAY && rng.chance(purpose === 'sale' ? 0.3 : 0.18)) {
    let fromMs = listedMs + 14 * DAY;
    const drops = rng.chance(0.25) ? 2 : 1;
    for (let d = 0; d < drops && fromMs < endMs; d++) {
      const atMs = Math.floor(rng.between(fromMs, endMs));
      cuts.push({ atMs, factor: 1 - rng.between(0.03, 0.12) });
      fromMs = atMs + DAY;
    }
  }
  return { listedMs, status, removedMs, cuts };
}
