import createClient from 'openapi-fetch';
import { trackedFetch } from './connection';
import { apiRoot } from './mount';
import type { paths } from './schema';

/** The one API client: generated types, same-origin cookies, rooted at the router's mount point. */
export const api = createClient<paths>({
  baseUrl: apiRoot().href.replace(/\/$/, ''),
  credentials: 'same-origin',
  fetch: trackedFetch,
});
