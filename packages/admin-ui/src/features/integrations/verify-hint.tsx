/** How a receiver checks that a webhook request came from this Flagstaff. */
export function VerifyHint() {
  return (
    <p className="muted">
      Receivers verify each request with the <code>Flagstaff-Signature</code> header,{' '}
      <code>{'t=<unix seconds>,v1=<hex>'}</code>: <code>v1</code> is the HMAC-SHA256, under the signing
      secret, of <code>{'<t>.<raw body>'}</code> (two <code>v1</code> values while a rotated-out secret still
      signs). Compare in constant time, refuse old <code>t</code>, and drop repeats by their{' '}
      <code>Idempotency-Key</code>. See <code>docs/webhooks.md</code> for example code.
    </p>
  );
}
