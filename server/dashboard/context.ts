/**
 * The dashboard's container: its dependencies, and the `Dashboard` object built from them
 * once per router (form-token signer, attempt limiters, static assets, clock) that every
 * route receives. Per-request state, guards and responders live in their own files.
 */
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Prisma } from '../platform/db.js';
import type { Logger } from '../platform/logger.js';
import type { AccountMail } from '../mail/account-mail.js';
import type { BackgroundWork } from '../platform/background-work.js';
import { type Asset, asset, builtAsset } from './assets.js';
import { EXPLORER_CALLS } from './explorer-access.js';
import { FormTokens } from './form-tokens.js';
import { AttemptLimiter, type Limit } from './attempt-limiter.js';
import { DEFAULT_LOGIN_LIMITS, LoginLimiter, type LoginLimits } from './login-limiter.js';
import { DEFAULT_SIGNUP_LIMITS, SignupLimiter, type SignupLimits } from './signup-limiter.js';
import type { DashboardWebhooks } from './webhooks-port.js';

export interface DashboardDeps {
  prisma: Prisma;
  pool: pg.Pool;
  logger: Logger;
  /** Account e-mails (confirmation, password reset, keys…), with links to the public dashboard. */
  mail: AccountMail;
  /** Work left after an answer (links, mails), awaited before the database pool closes. */
  background: BackgroundWork;
  /** Shares the log-in attempt counts between server instances. */
  redis?: Redis;
  /** Always mark cookies Secure (behind a TLS-terminating proxy); otherwise only on https requests. */
  secureCookies?: boolean;
  /**
   * Sign the sign-up and log-in forms' CSRF cookie: the first signs, the others (values
   * rotated out) are still accepted. Instances behind one load balancer share them.
   */
  formSecrets: readonly string[];
  loginLimits?: LoginLimits;
  signupLimits?: SignupLimits;
  /** Calls of the market explorer per dashboard session and window (EXPLORER_CALLS by default). */
  explorerLimit?: Limit;
  /** Namespace of the dashboard's counters in Redis (`mboa`); separate deployments sharing a Redis use their own. */
  limitPrefix?: string;
  /** The webhooks page's access to webhook endpoints (absent: the page says it is not available here). */
  webhooks?: DashboardWebhooks;
  now?: () => Date;
}

const HOUR = 60 * 60;
/** Contact-sales requests per client IP per hour: enough for an office, not for a spam run. */
export const SALES_REQUESTS_PER_IP = { points: 5, windowSeconds: HOUR };
/** Confirmation links re-sent per account per hour. */
export const VERIFICATION_RESENDS = { points: 3, windowSeconds: HOUR };
/** Password-reset requests per client IP and per address per hour. */
export const RESETS_PER_IP = { points: 10, windowSeconds: HOUR };
export const RESETS_PER_EMAIL = { points: 3, windowSeconds: HOUR };
/** Test events and resends asked for from the webhooks page, per account per hour. */
export const WEBHOOK_SENDS = { points: 60, windowSeconds: HOUR };

export class Dashboard {
  readonly formTokens: FormTokens;
  readonly loginLimiter: LoginLimiter;
  readonly signupLimiter: SignupLimiter;
  readonly salesLimiter: AttemptLimiter;
  readonly resendLimiter: AttemptLimiter;
  readonly resetByIp: AttemptLimiter;
  readonly resetByEmail: AttemptLimiter;
  readonly webhookSends: AttemptLimiter;
  readonly assets: Record<string, Asset>;
  /** Whether the market explorer's script is built (else its page says how). */
  readonly explorerBuilt: boolean;
  readonly explorerLimit: Limit;
  readonly now: () => Date;

  constructor(readonly deps: DashboardDeps) {
    this.formTokens = new FormTokens(deps.formSecrets.map((secret) => Buffer.from(secret)));
    const prefix = deps.limitPrefix ?? 'mboa';
    this.loginLimiter = new LoginLimiter(deps.redis, deps.loginLimits ?? DEFAULT_LOGIN_LIMITS, prefix);
    this.signupLimiter = new SignupLimiter(deps.redis, deps.signupLimits ?? DEFAULT_SIGNUP_LIMITS, prefix);
    this.salesLimiter = new AttemptLimiter(deps.redis, `${prefix}:sales:ip`, SALES_REQUESTS_PER_IP);
    this.resendLimiter = new AttemptLimiter(deps.redis, `${prefix}:verify:account`, VERIFICATION_RESENDS);
    this.resetByIp = new AttemptLimiter(deps.redis, `${prefix}:reset:ip`, RESETS_PER_IP);
    this.resetByEmail = new AttemptLimiter(deps.redis, `${prefix}:reset:email`, RESETS_PER_EMAIL);
    this.webhookSends = new AttemptLimiter(deps.redis, `${prefix}:webhooks:account`, WEBHOOK_SENDS);
    this.assets = {
      'dashboard.css': asset('dashboard.css', 'text/css; charset=utf-8'),
      'dashboard.js': asset('dashboard.js', 'text/javascript; charset=utf-8'),
    };
    const explorerJs = builtAsset('explorer.js', 'text/javascript; charset=utf-8');
    const explorerCss = builtAsset('explorer.css', 'text/css; charset=utf-8');
    this.explorerBuilt = explorerJs !== null && explorerCss !== null;
    if (explorerJs && explorerCss) Object.assign(this.assets, { 'explorer.js': explorerJs, 'explorer.css': explorerCss });
    this.explorerLimit = deps.explorerLimit ?? EXPLORER_CALLS;
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Runs `work` once the route's synchronous part (which writes the answer) is over,
   * logging its failure:
   * what a request leaves to do (a lookup, a mail) that its answer must not wait for or
   * show, so the answer is the same, in content and time, whatever the work finds.
   */
  afterAnswer(what: string, work: () => Promise<unknown>): void {
    const done = Promise.resolve()
      .then(work)
      .then(
        () => undefined,
        (err: Error) => this.deps.logger.error({ err: err.message }, `dashboard: ${what} failed`),
      );
    void this.deps.background.track(done);
  }

  get prisma(): Prisma {
    return this.deps.prisma;
  }

  get mail(): AccountMail {
    return this.deps.mail;
  }
}
