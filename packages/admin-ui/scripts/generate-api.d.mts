/** Generates `generated/openapi.json` and `src/api/schema.d.ts` from the route table. */
export declare function generateApi(): Promise<void>;
