import { useState } from 'react';

/** A secret shown exactly once, with a copy button. */
export function SecretOnce({ secret, label }: { secret: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="stack">
      <div className="notice notice-info">Copy the {label} now: it is not shown again.</div>
      <div className="secret">
        <code data-testid="secret" style={{ flex: 1 }}>
          {secret}
        </code>
        <button
          type="button"
          className="btn btn-small"
          onClick={async () => {
            await navigator.clipboard?.writeText(secret).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}
