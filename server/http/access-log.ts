import type { RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { context } from './context.js';

/** One structured line per answered request; no key, query values or bodies. */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const ctx = context(res);
      logger.info(
        {
          request_id: ctx.requestId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          account: ctx.caller?.accountId,
        },
        'request',
      );
    });
    next();
  };
}
