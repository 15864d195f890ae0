/**
 * Whether an `If-None-Match` header matches an ETag: the one parser of that header on every SDK
 * path (client features, one feature, frontend, OFREP). A list of tags, compared weakly (`W/` on
 * either side is ignored, as RFC 9110 asks for `If-None-Match`), or `*`.
 */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const wanted = opaque(etag);
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || opaque(tag) === wanted) return true;
  }
  return false;
}

const opaque = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);
