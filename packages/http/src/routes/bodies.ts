import { notFound } from '@flagstaff/core';
import { z } from 'zod';

/** `{ features: [...] }`: the body of the bulk operations on features. */
export const featureNamesBody = z.object({
  features: z.array(z.string().min(1, 'must hold non-empty feature names')),
});

/** `{ features, stale }`: POST /projects/:p/stale. */
export const staleBody = featureNamesBody.extend({ stale: z.boolean() });

/** A numeric path id (segments, addons, users, groups, roles); anything else names no resource. */
export function idParam(value: string | undefined, what: string): number {
  if (value === undefined || !/^[0-9]{1,15}$/.test(value)) throw notFound(what, value ?? '');
  return Number(value);
}
