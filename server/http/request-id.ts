import type { RequestHandler } from 'express';
import { randomId } from '../ids.js';
import { context } from './context.js';

/** A caller's own X-Request-Id is kept when it is safe to echo; else one is made. */
const SAFE_ID = /^[A-Za-z0-9._:-]{8,64}$/;

export const requestId: RequestHandler = (req, res, next) => {
  const given = req.get('x-request-id');
  const id = given && SAFE_ID.test(given) ? given : randomId('req');
  context(res).requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};
