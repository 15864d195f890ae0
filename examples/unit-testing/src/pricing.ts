// Application code under test: it depends only on something that answers flag questions, so tests
// can hand it Flagstaff's compiled flags from a memory store.
export interface Flags {
  isEnabled(name: string, context: { userId?: string; properties?: Record<string, string> }): boolean;
  getVariant(
    name: string,
    context: { userId?: string },
  ): { name: string; enabled: boolean; payload?: { type: string; value: string } };
}

/** The price a user pays, in cents. */
export function priceFor(flags: Flags, user: { id: string; country: string }, listPrice: number): number {
  const context = { userId: user.id, properties: { country: user.country } };
  let price = listPrice;
  if (flags.isEnabled('regional-discount', context)) price = Math.round(price * 0.9);
  const experiment = flags.getVariant('price-rounding', context);
  if (experiment.enabled && experiment.name === 'charm')
    price = Math.max(0, Math.ceil(price / 100) * 100 - 1);
  return price;
}
