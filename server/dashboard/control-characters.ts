/**
 * No control character reaches a route: a query parameter, form field or path segment
 * holding one (a NUL byte, an escape, a line break in a one-line field) is refused with a
 * 400 page saying so, before any route reads it. Only the multi-line fields (text areas)
 * keep their line breaks and tabs.
 */
import type { NextFunction, Request, Response } from 'express';
import { hasControlCharacter } from '../platform/text.js';

/** The text areas' names: their line breaks are the customer's. */
const MULTILINE_FIELDS = new Set(['message']);

function values(source: unknown): Array<[string, string]> {
  if (source === null || typeof source !== 'object') return [];
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
    for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') out.push([name, v]);
  }
  return out;
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Whether the request carries a control character where it may not. */
export function carriesControlCharacter(req: Request): boolean {
  if (hasControlCharacter(decodedPath(req.path))) return true;
  if (values(req.query).some(([name, v]) => hasControlCharacter(name) || hasControlCharacter(v))) return true;
  return values(req.body).some(([name, v]) => hasControlCharacter(name) || hasControlCharacter(v, MULTILINE_FIELDS.has(name)));
}

/** Middleware: `refuse` answers a request that carries a control character. */
export function refuseControlCharacters(refuse: (req: Request, res: Response) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (carriesControlCharacter(req)) return refuse(req, res);
    next();
  };
}
