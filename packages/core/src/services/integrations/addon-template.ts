/**
 * The part of Mustache that webhook body templates written for the reference use: `{{a.b}}`
 * (HTML-escaped, as Mustache does), `{{{a.b}}}` and `{{& a.b}}` (raw). Objects render as JSON,
 * missing values as ''. Sections, partials and lambdas are not supported; their tags render as ''.
 */
export function renderTemplate(template: string, view: Record<string, unknown>): string {
  return template.replace(
    /\{\{\{\s*([^}]*?)\s*\}\}\}|\{\{\s*(&?)\s*([^}]*?)\s*\}\}/g,
    (_match, triple, amp, name) => {
      if (triple !== undefined) return stringify(lookup(view, triple));
      const value = stringify(lookup(view, name as string));
      return amp ? value : escapeHtml(value);
    },
  );
}

function lookup(view: Record<string, unknown>, path: string): unknown {
  if (path === '.' || path === '') return view;
  let current: unknown = view;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

const stringify = (value: unknown): string =>
  value === undefined || value === null
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '/': '&#x2F;',
  '`': '&#x60;',
  '=': '&#x3D;',
};

const escapeHtml = (s: string): string => s.replace(/[&<>"'`=/]/g, (c) => HTML_ESCAPES[c] ?? c);
