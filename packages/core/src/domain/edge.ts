import { z } from 'zod';

/** `POST /edge/validate`: the tokens Unleash Edge's clients presented. */
export const edgeValidateSchema = z.object({
  tokens: z.array(z.string()).max(1_000, 'must list at most 1000 tokens'),
});

/** A token Edge may serve: a valid SDK token and the projects it reaches. */
export const edgeTokenSchema = z.strictObject({
  token: z.string(),
  type: z.enum(['client', 'frontend']),
  projects: z.array(z.string()),
});
export type EdgeToken = z.output<typeof edgeTokenSchema>;

/** The answer of `/edge/validate`: the valid ones among the tokens asked about. */
export const edgeTokensSchema = z.strictObject({ tokens: z.array(edgeTokenSchema) });
