/**
 * Mboa's plans, as sold (prices excl. tax, FCFA per month). `null` means unlimited.
 * The single source for the server's limits, the contract's route metadata, the docs
 * and the dashboard.
 */
export const PLAN_NAMES = ['starter', 'pro', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

const STARTER_ENDPOINTS = ['ping', 'listings.search', 'listings.get', 'market.stats'] as const;
/** Saved searches and webhooks (Pro and Enterprise). */
const PUSH_ENDPOINTS = [
  'saved_searches.create',
  'saved_searches.list',
  'saved_searches.get',
  'saved_searches.update',
  'saved_searches.delete',
  'saved_searches.listings',
  'webhook_endpoints.create',
  'webhook_endpoints.list',
  'webhook_endpoints.delete',
  'webhook_endpoints.rotate_secret',
  'webhook_endpoints.deliveries',
  'webhook_endpoints.test',
  'webhook_endpoints.resend',
] as const;

/** Endpoints, named as in the route metadata and the usage breakdown. */
export const ENDPOINTS = [
  ...STARTER_ENDPOINTS,
  'market.trends',
  'market.history',
  'exports.listings',
  'valuations.get',
  'valuations.batch',
  ...PUSH_ENDPOINTS,
] as const;
export type EndpointName = (typeof ENDPOINTS)[number];

/** Support levels, by stable id: what the dashboard translates (its text per language lives in its catalogue). */
export const SUPPORT_LEVELS = ['email', 'priority', 'dedicated'] as const;
export type SupportLevel = (typeof SUPPORT_LEVELS)[number];

export interface PlanDefinition {
  name: PlanName;
  label: string;
  priceXafPerMonth: number;
  monthlyQuota: number | null;
  ratePerMinute: number | null;
  maxKeys: number | null;
  endpoints: readonly EndpointName[];
  supportLevel: SupportLevel;
  /** The support level in English words, as the operator CLI lists plans. */
  support: string;
  usageAnalytics: boolean;
  /** Saved searches an account may keep (0: not included). */
  maxSavedSearches: number;
  /** Webhook endpoints an account may keep (0: not included). */
  maxWebhookEndpoints: number;
  /** Webhook deliveries a month (first attempts; never counted in the API quota). */
  webhookDeliveriesPerMonth: number;
}

export const PLANS: Record<PlanName, PlanDefinition> = {
  starter: {
    name: 'starter',
    label: 'Starter',
    priceXafPerMonth: 50_000,
    monthlyQuota: 10_000,
    ratePerMinute: 30,
    maxKeys: 1,
    endpoints: STARTER_ENDPOINTS,
    supportLevel: 'email',
    support: 'e-mail',
    usageAnalytics: false,
    maxSavedSearches: 0,
    maxWebhookEndpoints: 0,
    webhookDeliveriesPerMonth: 0,
  },
  pro: {
    name: 'pro',
    label: 'Pro',
    priceXafPerMonth: 250_000,
    monthlyQuota: 100_000,
    ratePerMinute: 300,
    maxKeys: 5,
    endpoints: [...STARTER_ENDPOINTS, 'market.trends', 'market.history', ...PUSH_ENDPOINTS],
    supportLevel: 'priority',
    support: 'priority, response under 24 h',
    usageAnalytics: true,
    maxSavedSearches: 25,
    maxWebhookEndpoints: 3,
    webhookDeliveriesPerMonth: 100_000,
  },
  enterprise: {
    name: 'enterprise',
    label: 'Enterprise',
    priceXafPerMonth: 1_000_000,
    monthlyQuota: null,
    ratePerMinute: null,
    maxKeys: null,
    endpoints: ENDPOINTS,
    supportLevel: 'dedicated',
    support: 'dedicated, response under 4 h; 99.9% SLA with on-call',
    usageAnalytics: true,
    maxSavedSearches: 1_000,
    maxWebhookEndpoints: 20,
    webhookDeliveriesPerMonth: 5_000_000,
  },
};

/** The plans that include an endpoint, cheapest first. */
export function plansIncluding(endpoint: EndpointName): PlanName[] {
  return PLAN_NAMES.filter((plan) => PLANS[plan].endpoints.includes(endpoint));
}

/**
 * Test keys (`mboa_test_…`), on every plan: the same endpoints as the account's live keys,
 * over a fixed public sample of listings and market figures; never counted in the quota,
 * limited per account and per minute on their own.
 */
/**
 * `ping` is never refused by the plan's per-minute limit nor counted in it (nor in the
 * quota): it is how a caller reads where they stand. Its own limit, per account, only
 * stops a loop gone wild.
 */
export const PING_RATE_PER_MINUTE = 600;

export const TEST_KEYS = {
  /** Active test keys an account may hold, beside its plan's live keys. */
  perAccount: 5,
  /** Calls per minute, per account, across its test keys. */
  ratePerMinute: 60,
} as const;
