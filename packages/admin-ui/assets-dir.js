import { fileURLToPath } from 'node:url';

/** Absolute path of the built admin UI (index.html and assets), served by the router at `ui/`. */
export const adminUiAssetsDir = () => fileURLToPath(new URL('./dist/', import.meta.url)).replace(/\/$/, '');
