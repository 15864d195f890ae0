/** The package whose route table the client is generated from. */
export declare const SERVER_PACKAGE: string;
/** Generates `generated/openapi.json` and `src/api/schema.d.ts` from the route table. */
export declare function generateApi(): Promise<void>;
