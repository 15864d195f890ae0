/** Absolute path of the built admin UI (index.html and assets), served by the router at `ui/`. */
export declare const adminUiAssetsDir: () => string;
