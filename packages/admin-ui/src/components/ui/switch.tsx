interface SwitchProps {
  checked: boolean;
  onCheckedChange(checked: boolean): void;
  label: string;
  disabled?: boolean;
  title?: string;
}

/**
 * An on/off switch with an accessible name: a button with the switch role (Space and Enter press it,
 * as any button). It is written here rather than taken from Radix: the project table draws one per
 * feature and environment, and Radix's (context, controllable state, a measured hidden input) made
 * them a noticeable part of the table's first render.
 */
export function Switch({ checked, onCheckedChange, label, disabled, title }: SwitchProps) {
  const state = checked ? 'checked' : 'unchecked';
  return (
    <button
      type="button"
      role="switch"
      className="switch"
      aria-checked={checked}
      aria-label={label}
      title={title ?? label}
      disabled={disabled}
      data-state={state}
      data-disabled={disabled ? '' : undefined}
      onClick={() => onCheckedChange(!checked)}
    >
      <span className="switch-thumb" data-state={state} />
    </button>
  );
}
