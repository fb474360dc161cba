/**
 * Payment terms: an invoice is due 15 days after it is issued. An invoice still unpaid
 * once its due date is past gets a warning e-mail that names the suspension date; API
 * access is suspended when the invoice is 15 days past due, and never less than 3 days
 * after that warning. Recording the payment lifts a suspension for non-payment at once.
 */
import { DAY_MS } from '../accounts/policy.js';

export const PAYMENT_TERMS_DAYS = 15;
export const SUSPEND_AFTER_DUE_DAYS = 15;
export const WARNING_NOTICE_DAYS = 3;

export function addDays(day: Date, days: number): Date {
  return new Date(day.getTime() + days * DAY_MS);
}

/** 00:00 UTC of the day holding `at`. */
export function dayOf(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

/** The day access is suspended, as the warning states it. */
export function suspensionDay(dueOn: Date, warnedAt: Date): Date {
  const byDue = addDays(dueOn, SUSPEND_AFTER_DUE_DAYS);
  const byWarning = addDays(dayOf(warnedAt), WARNING_NOTICE_DAYS);
  return byDue > byWarning ? byDue : byWarning;
}
