/**
 * Keeps the last quota the API reported and tells the caller about it: `onQuota` on
 * every answer that carries one, and one warning per quota month once usage crosses
 * `quotaWarningAt`, so a nightly job hears of a running-out quota before it stops.
 */
import type { Quota } from '../types.js';
import { MboaError } from './errors.js';

/** Called with the quota reported by each answer (successes and errors alike). */
export type QuotaListener = (quota: Quota) => void;

/** Called once per quota month when `used / limit` reaches the `quotaWarningAt` threshold. */
export type QuotaWarningListener = (quota: Quota, threshold: number) => void;

/** The default warning: one line on the console, with what to do about it. */
export const warnOnConsole: QuotaWarningListener = (quota, threshold) => {
  const percent = Math.round((quota.used / (quota.limit ?? quota.used)) * 100);
  console.warn(
    `[mboa] ${percent}% of your ${quota.plan} plan's monthly quota is used (${quota.used} of ${quota.limit} calls; ` +
      `warning threshold ${Math.round(threshold * 100)}%). It resets at ${quota.resets_at}; upgrade in the dashboard for more.`,
  );
};

export class QuotaTracker {
  /** The most recent quota seen, or undefined before the first answer. */
  current: Quota | undefined;
  /** `resets_at` of the quota month already warned about: one warning per month. */
  private warnedMonth: string | undefined;

  constructor(
    private readonly onQuota: QuotaListener | undefined,
    private readonly threshold: number | undefined,
    private readonly onWarning: QuotaWarningListener,
  ) {
    if (threshold !== undefined && !(typeof threshold === 'number' && threshold > 0 && threshold <= 1)) {
      throw new MboaError(`quotaWarningAt must be a fraction in (0, 1], such as 0.9; got ${String(threshold)}.`, {
        code: 'configuration_error',
      });
    }
  }

  /** Records a reported quota and fires the callbacks it calls for. */
  report(quota: Quota): void {
    // Concurrent calls can answer out of order; within a month `used` only grows, so an
    // answer with a lower count is older news and must not replace a newer one.
    const current = this.current;
    if (!current || current.resets_at !== quota.resets_at || quota.used >= current.used) this.current = quota;
    this.onQuota?.(quota);
    if (this.threshold === undefined || quota.limit === null || quota.limit <= 0) return;
    if (quota.used / quota.limit < this.threshold || this.warnedMonth === quota.resets_at) return;
    this.warnedMonth = quota.resets_at;
    this.onWarning(quota, this.threshold);
  }
}
