import type { AddonProviderDefinition } from '../../domain/addon.js';
import { EVENT_TYPES, type FlagstaffEvent } from '../../domain/event.js';
import { invalid } from '../../errors.js';
import { renderTemplate } from './addon-template.js';

/** What one delivery sends: everything but the URL, which is a parameter. */
export interface AddonRequest {
  headers: Record<string, string>;
  body: string;
}

/** A provider: its definition (GET /addons lists it) and how it turns an event into a request. */
export interface AddonProvider {
  definition: AddonProviderDefinition;
  /** Extra checks beyond "required parameters present"; throws VALIDATION naming the parameter. */
  validate?(parameters: Record<string, unknown>): void;
  request(event: FlagstaffEvent, parameters: Record<string, unknown>): AddonRequest;
  /**
   * Whether deliveries carry an HMAC signature and an idempotency key (see addon-signing.ts), and the
   * addon gets a signing secret. Chat providers keep their own formats.
   */
  signed?: boolean;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** customHeaders is a JSON object of string values, given as text (the form field is a textfield). */
function parseCustomHeaders(value: unknown): Record<string, string> {
  if (value === undefined || value === null || value === '') return {};
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw invalid('parameters.customHeaders', 'must be a JSON object such as {"X-Api-Key": "…"}.');
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw invalid('parameters.customHeaders', 'must be a JSON object of header names to string values.');
  const headers: Record<string, string> = {};
  for (const [name, v] of Object.entries(parsed)) {
    if (typeof v !== 'string') throw invalid(`parameters.customHeaders.${name}`, 'must be a string.');
    headers[name] = v;
  }
  return headers;
}

/** A one-line human summary for chat providers. */
export function describeEvent(event: FlagstaffEvent): string {
  const subject = event.featureName ? ` feature "${event.featureName}"` : '';
  const where = [
    event.project && `project "${event.project}"`,
    event.environment && `environment "${event.environment}"`,
  ]
    .filter(Boolean)
    .join(', ');
  return `${event.createdBy}: ${event.type}${subject}${where ? ` (${where})` : ''}`;
}

const url = (sensitive: boolean, description: string) =>
  ({ name: 'url', displayName: 'URL', type: 'url', required: true, sensitive, description }) as const;

const webhook: AddonProvider = {
  definition: {
    name: 'webhook',
    displayName: 'Webhook',
    description: 'POSTs every matching event to a URL, as JSON or through a body template.',
    parameters: [
      url(false, 'Where events are POSTed; http or https.'),
      {
        name: 'contentType',
        displayName: 'Content-Type',
        type: 'text',
        required: false,
        sensitive: false,
        description: 'Default application/json.',
      },
      {
        name: 'authorization',
        displayName: 'Authorization header',
        type: 'text',
        required: false,
        sensitive: true,
      },
      {
        name: 'bodyTemplate',
        displayName: 'Body template',
        type: 'textfield',
        required: false,
        sensitive: false,
        description:
          'Mustache-style, e.g. {"text": "{{event.createdBy}} did {{event.type}}"}; {{{eventJson}}} is the whole event.',
      },
      {
        name: 'customHeaders',
        displayName: 'Extra headers',
        type: 'textfield',
        required: false,
        // Extra headers are where API keys go, so they are treated as a secret throughout.
        sensitive: true,
        description: 'A JSON object of header names to values (kept secret: shown masked once saved).',
      },
    ],
    events: [...EVENT_TYPES],
  },
  validate: (p) => void parseCustomHeaders(p['customHeaders']),
  signed: true,
  request(event, p) {
    const headers: Record<string, string> = {
      'Content-Type': str(p['contentType']) ?? 'application/json',
      ...parseCustomHeaders(p['customHeaders']),
    };
    const authorization = str(p['authorization']);
    if (authorization) headers['Authorization'] = authorization;
    const template = str(p['bodyTemplate']);
    const body = template
      ? renderTemplate(template, {
          event,
          eventJson: JSON.stringify(event),
          eventMarkdown: describeEvent(event),
        })
      : JSON.stringify(event);
    return { headers, body };
  },
};

const slack: AddonProvider = {
  definition: {
    name: 'slack',
    displayName: 'Slack (incoming webhook)',
    description: 'Posts a short message per matching event to a Slack incoming webhook.',
    parameters: [
      url(true, 'The Slack incoming webhook URL.'),
      {
        name: 'username',
        displayName: 'Username',
        type: 'text',
        required: false,
        sensitive: false,
        description: 'Default Flagstaff.',
      },
      {
        name: 'emojiIcon',
        displayName: 'Emoji icon',
        type: 'text',
        required: false,
        sensitive: false,
        description: 'Default :flags:.',
      },
    ],
    events: [...EVENT_TYPES],
  },
  request: (event, p) => ({
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      username: str(p['username']) ?? 'Flagstaff',
      icon_emoji: str(p['emojiIcon']) ?? ':flags:',
      text: describeEvent(event),
    }),
  }),
};

const teams: AddonProvider = {
  definition: {
    name: 'teams',
    displayName: 'Microsoft Teams (incoming webhook)',
    description: 'Posts a message card per matching event to a Teams incoming webhook.',
    parameters: [url(true, 'The Teams incoming webhook URL.')],
    events: [...EVENT_TYPES],
  },
  request: (event) => ({
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      themeColor: '0076D7',
      summary: event.type,
      text: describeEvent(event),
    }),
  }),
};

/** Every provider this build knows, by name. */
export const ADDON_PROVIDERS: ReadonlyMap<string, AddonProvider> = new Map(
  [webhook, slack, teams].map((p) => [p.definition.name, p]),
);
