import type { HttpRequest, HttpResponse } from '../request.js';
import { createStaticReader, pickEncoding, type StaticFile, staticFile } from './static-files.js';

/** Where the built admin UI is: a directory, or found through the `@flagstaff/admin-ui` package. */
export type UiOption = boolean | { assetsDir: string };

const UI_PREFIX = '/ui';

/**
 * Headers on every admin UI answer. The built app loads its scripts, styles and API from its own
 * origin; styles also allow 'unsafe-inline' because Radix dialogs and popovers insert <style>
 * elements (scroll locking) and charts set style attributes; the favicon is a data: URL.
 * The UI must not be framed (clickjacking) nor leak its URLs (feature names, invite links) on.
 */
export const UI_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Loads `@flagstaff/admin-ui` only when the UI is on, so the API works without the package installed. */
async function packagedAssetsDir(): Promise<string> {
  const specifier = '@flagstaff/admin-ui';
  const ui: { adminUiAssetsDir(): string } = await import(specifier);
  return ui.adminUiAssetsDir();
}

const escapeAttribute = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** index.html with the base the app resolves its assets, routes and API calls against. */
function withBase(html: string, base: string): string {
  const tag = `<base href="${escapeAttribute(base)}">`;
  return html.includes('<head>') ? html.replace('<head>', `<head>${tag}`) : tag + html;
}

function fileResponse(file: StaticFile, request: HttpRequest, cacheControl: string): HttpResponse {
  const encoding = pickEncoding(file, request.headers['accept-encoding']);
  const headers: Record<string, string> = {
    ...UI_SECURITY_HEADERS,
    'content-type': file.type,
    'cache-control': cacheControl,
  };
  if (file.gzip) headers.vary = 'Accept-Encoding';
  if (encoding) headers['content-encoding'] = encoding;
  return { status: 200, headers, body: encoding ? file[encoding]! : file.identity };
}

/**
 * Serves the admin UI at `ui/` under wherever the API is mounted: hashed assets `immutable`,
 * `index.html` `no-cache` with a `<base href>` for the mount path worked out per request, and deep
 * links answered with `index.html` so the app's router takes them. Returns null for other paths.
 */
export function createUiServer(option: Exclude<UiOption, false>) {
  let reader: Promise<(path: string) => Promise<StaticFile | null>> | undefined;
  const readerOf = () => {
    reader ??= (typeof option === 'object' ? Promise.resolve(option.assetsDir) : packagedAssetsDir()).then(
      (dir) => createStaticReader(dir),
    );
    return reader;
  };
  const indexes = new Map<string, StaticFile>();
  const indexFor = async (dir: (path: string) => Promise<StaticFile | null>, base: string) => {
    let index = indexes.get(base);
    if (!index) {
      const html = await dir('index.html');
      if (!html) return null;
      index = staticFile(
        'index.html',
        Buffer.from(withBase(Buffer.from(html.identity).toString('utf8'), base)),
      );
      if (indexes.size < 16) indexes.set(base, index);
    }
    return index;
  };

  return async (request: HttpRequest): Promise<HttpResponse | null> => {
    const { path } = request;
    if (path !== UI_PREFIX && !path.startsWith(`${UI_PREFIX}/`)) return null;
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    const base = `${request.basePath}${UI_PREFIX}/`;
    if (path === UI_PREFIX) return { status: 308, headers: { ...UI_SECURITY_HEADERS, location: base } };
    const dir = await readerOf();
    let relative: string;
    try {
      relative = decodeURIComponent(path.slice(UI_PREFIX.length + 1));
    } catch {
      return {
        status: 404,
        headers: { ...UI_SECURITY_HEADERS, 'content-type': 'text/plain' },
        body: 'Not Found',
      };
    }
    const isAsset = relative.startsWith('assets/');
    if (relative !== '' && relative !== 'index.html') {
      const file = await dir(relative);
      if (file)
        return fileResponse(file, request, isAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
      // A missing file (an old hashed asset) is a 404; a path without one is a route of the app.
      if (isAsset || /\.[a-z0-9]+$/i.test(relative)) {
        return {
          status: 404,
          headers: { ...UI_SECURITY_HEADERS, 'content-type': 'text/plain' },
          body: 'Not Found',
        };
      }
    }
    const index = await indexFor(dir, base);
    if (!index) {
      return {
        status: 503,
        headers: { ...UI_SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' },
        body: 'The admin UI is not built: run `npm run build` first.',
      };
    }
    return fileResponse(index, request, 'no-cache');
  };
}
