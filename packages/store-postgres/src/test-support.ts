import { randomBytes } from 'node:crypto';

/** The PostgreSQL server to test against, when there is one. */
export const pgUrl = process.env.FLAGSTAFF_TEST_PG_URL;

/** A schema name no other run or store uses, so parallel and repeated runs never collide. */
export const freshSchema = (): string => `flagstaff_test_${randomBytes(8).toString('hex')}`;
