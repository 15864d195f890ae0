import { describe, expect, it } from 'vitest';
import { renderTemplate } from './addon-template.js';

describe('body templates', () => {
  it('renders escaped, raw and missing values, and objects as JSON', () => {
    const view = { event: { type: 'x', data: { a: 1 }, by: '"q"' } };
    expect(
      renderTemplate(
        '{{event.type}}|{{{event.by}}}|{{& event.by}}|{{event.by}}|{{event.nope}}|{{{event.data}}}',
        view,
      ),
    ).toBe('x|"q"|"q"|&quot;q&quot;||{"a":1}');
  });
});
