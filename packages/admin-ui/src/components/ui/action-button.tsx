import { type ButtonHTMLAttributes, useId } from 'react';

type Props = ButtonHTMLAttributes<HTMLButtonElement> & {
  /** Why the action is unavailable ("Needs the Editor role."); the button is disabled while set. */
  disabledReason?: string | null;
};

/**
 * A button that, when disabled for a reason, says why: as its tooltip and as its accessible
 * description, so neither a mouse user nor a screen reader user is left guessing.
 */
export function ActionButton({ disabledReason, disabled, title, type = 'button', ...props }: Props) {
  const id = useId();
  const reason = disabledReason || null;
  return (
    <>
      <button
        {...props}
        type={type}
        disabled={Boolean(reason) || disabled}
        title={reason ?? title}
        aria-describedby={reason ? id : props['aria-describedby']}
      />
      {reason ? (
        <span id={id} className="sr-only">
          {reason}
        </span>
      ) : null}
    </>
  );
}
