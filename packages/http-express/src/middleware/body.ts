import express, { type RequestHandler } from 'express';
import { HttpError } from '../errors.js';

/** The contract's default request body limit. */
export const DEFAULT_BODY_LIMIT = '100kb';

const JSON_TYPES = ['application/json', 'application/*+json'];

const hasBody = (headers: Record<string, string | string[] | undefined>): boolean =>
  headers['transfer-encoding'] !== undefined ||
  (headers['content-length'] !== undefined && headers['content-length'] !== '0');

/**
 * JSON-only body parsing: a request without a body passes with `req.body` undefined (the service
 * decides whether one was required); a body of any other content type is a 415 naming both types;
 * malformed JSON is a 400 and an oversized body a 413 (mapped in errors.ts).
 */
export function jsonBody(limit: string | number = DEFAULT_BODY_LIMIT): RequestHandler {
  const parse = express.json({ limit, strict: true, type: () => true });
  return (req, res, next) => {
    if (!hasBody(req.headers)) {
      req.body = undefined;
      next();
      return;
    }
    if (!req.is(JSON_TYPES)) {
      const received = req.headers['content-type'] ?? 'no content type';
      next(
        new HttpError(
          415,
          'ContentTypeerror',
          `We do not accept the content type "${received}" for this request body. Send it as "application/json".`,
        ),
      );
      return;
    }
    parse(req, res, next);
  };
}
