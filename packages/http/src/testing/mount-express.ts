import { createServer, type Server } from 'node:http';
import type { Flagstaff } from '@flagstaff/core';
import { type FlagstaffRouterOptions, flagstaffRouter } from '@flagstaff/http-express';
import express from 'express';

/** An Express app with the router mounted at `prefix`, for running the HTTP suite through the Express adapter. */
export function mountExpress(flagstaff: Flagstaff, prefix: string, options: FlagstaffRouterOptions): Server {
  const app = express();
  const router = flagstaffRouter(flagstaff, options);
  if (prefix) app.use(prefix, router);
  else app.use(router);
  return createServer(app);
}
