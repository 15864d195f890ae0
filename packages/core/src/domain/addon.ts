import { z } from 'zod';
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
