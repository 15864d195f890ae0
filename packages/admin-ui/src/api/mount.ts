/**
 * Where the app lives: the server serves it at `<mount>/ui/` and injects `<base href>`, so the
 * router's basename and the API root both derive from the document's base URI.
 */
export const routerBasename = (): string => new URL(document.baseURI).pathname.replace(/\/$/, '') || '/';

/** The router's mount point, e.g. `/flags/` when mounted under `/flags`, `/` standalone. */
export const apiRoot = (): URL => new URL('../', document.baseURI);
