import { z } from 'zod';
import { addonDeliveryStatusSchema } from './addon-delivery.js';
import { eventTypeSchema } from './event.js';

export const addonInputSchema = z.object({
  provider: z.string().min(1, 'must name an addon provider'),
  description: z.string().nullable().optional(),
  enabled: z.boolean().default(true),
  parameters: z.record(z.string(), z.unknown()).default({}),
  events: z.array(eventTypeSchema).min(1, 'must list at least one event type'),
  projects: z.array(z.string()).default([]),
  environments: z.array(z.string()).default([]),
});
export type AddonInput = z.input<typeof addonInputSchema>;

export interface Addon {
  id: number;
  provider: string;
  description: string | null;
  enabled: boolean;
  parameters: Record<string, unknown>;
  events: string[];
  projects: string[];
  environments: string[];
  createdAt: string;
}

/** What a provider needs, listed by GET /addons. */
export interface AddonProviderDefinition {
  name: string;
  displayName: string;
  description: string;
  parameters: {
    name: string;
    displayName: string;
    type: 'url' | 'text' | 'textfield';
    required: boolean;
    sensitive: boolean;
    description?: string;
  }[];
  events: string[];
}

/** A provider definition as `GET /api/admin/addons` lists it. */
export const addonProviderDefinitionSchema = z.strictObject({
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  parameters: z.array(
    z.strictObject({
      name: z.string(),
      displayName: z.string(),
      type: z.enum(['url', 'text', 'textfield']),
      required: z.boolean(),
      sensitive: z.boolean(),
      description: z.string().optional(),
    }),
  ),
  events: z.array(z.string()),
});

/** An addon as reads show it: sensitive parameters masked, with its delivery state. */
export const addonViewSchema = z.strictObject({
  id: z.number().int(),
  provider: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  // Parameters are the provider's, open by nature.
  parameters: z.record(z.string(), z.unknown()),
  events: z.array(z.string()),
  projects: z.array(z.string()),
  environments: z.array(z.string()),
  createdAt: z.string(),
  delivery: addonDeliveryStatusSchema,
});
export type AddonView = z.infer<typeof addonViewSchema>;

/** What creating an addon answers once: a webhook's signing secret beside the addon. */
export const createdAddonSchema = addonViewSchema.extend({ signingSecret: z.string().optional() });
export type CreatedAddon = z.infer<typeof createdAddonSchema>;

/** `GET /api/admin/addons`. */
export const addonListSchema = z.strictObject({
  addons: z.array(addonViewSchema),
  providers: z.array(addonProviderDefinitionSchema),
});

/** A rotated webhook signing secret, answered once. */
export const rotatedSigningSecretSchema = z.strictObject({
  signingSecret: z.string(),
  previousValidUntil: z.string(),
});
