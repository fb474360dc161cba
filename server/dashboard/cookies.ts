/** Cookie parsing and writing for the dashboard (no dependency needed for so little). */
import type { Request, Response } from 'express';

export function readCookies(req: Request): Record<string, string> {
  const header = req.headers.cookie;
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!name || name in out) continue;
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      // A cookie we did not write: ignore it.
    }
  }
  return out;
}

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie; absent makes a browser-session cookie. */
  maxAge?: number;
  secure: boolean;
  /** Where the dashboard is mounted: its cookies go nowhere else. */
  path: string;
}

/** httpOnly and SameSite=Lax always; Secure when asked (https). */
export function setCookie(res: Response, name: string, value: string, options: CookieOptions): void {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.maxAge !== undefined) {
    parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAge))}`);
    if (options.maxAge <= 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  }
  if (options.secure) parts.push('Secure');
  res.append('Set-Cookie', parts.join('; '));
}

export function clearCookie(res: Response, name: string, secure: boolean, path: string): void {
  setCookie(res, name, '', { maxAge: 0, secure, path: path || '/' });
}

/** Where the dashboard is mounted, the path of all its cookies. */
export function cookiePath(req: Request): string {
  return req.baseUrl || '/';
}
