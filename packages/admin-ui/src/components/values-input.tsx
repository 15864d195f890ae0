import { type InputHTMLAttributes, useState } from 'react';

/** A comma-separated list as values: trimmed, empty entries dropped. */
export const parseValues = (text: string): string[] =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  values: readonly string[];
  onValuesChange(values: string[]): void;
};

/**
 * A text input for a list of values. It keeps the text as typed ("alice, " stays until the next
 * value) and only takes the values from outside when they differ from what the text means, so the
 * field never rewrites itself under the cursor.
 */
export function ValuesInput({ values, onValuesChange, ...rest }: Props) {
  const [text, setText] = useState(values.join(', '));
  const shown = same(parseValues(text), values) ? text : values.join(', ');
  return (
    <input
      {...rest}
      value={shown}
      onChange={(e) => {
        setText(e.target.value);
        onValuesChange(parseValues(e.target.value));
      }}
    />
  );
}
