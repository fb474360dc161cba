/**
 * CSRF protection for the forms shown before a session exists (sign-up, log-in): a
 * signed double-submit cookie. The cookie holds `nonce.HMAC(nonce)`, the form's hidden
 * field holds the nonce; a POST passes only if both are present, the signature is ours and
 * the two agree. Forms inside a session use the session's own token instead.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { sameToken } from './session.js';

export const FORM_COOKIE = 'mboa_form';

export class FormTokens {
  /** Signs with the first; the others (values rotated out) are still accepted. */
  constructor(private readonly secrets: readonly Buffer[]) {
    if (secrets.length === 0) throw new Error('FormTokens needs a secret');
  }

  private sign(nonce: string, secret = this.secrets[0]): string {
    return createHmac('sha256', secret).update(`mboa-form\0${nonce}`).digest('base64url');
  }

  /** A fresh pair: the cookie value and the form field value. */
  issue(): { cookie: string; token: string } {
    const nonce = randomBytes(24).toString('base64url');
    return { cookie: `${nonce}.${this.sign(nonce)}`, token: nonce };
  }

  /** The field value of a valid cookie, to reuse on a re-rendered form; null if invalid. */
  tokenOf(cookie: string | undefined): string | null {
    if (!cookie) return null;
    const dot = cookie.indexOf('.');
    if (dot <= 0) return null;
    const nonce = cookie.slice(0, dot);
    const signature = cookie.slice(dot + 1);
    return this.secrets.some((secret) => sameToken(signature, this.sign(nonce, secret))) ? nonce : null;
  }

  verify(cookie: string | undefined, field: unknown): boolean {
    const nonce = this.tokenOf(cookie);
    return nonce !== null && sameToken(field, nonce);
  }
}
