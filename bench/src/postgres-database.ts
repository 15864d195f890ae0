// A throwaway PostgreSQL database for one bench run, on the server the tests use.
import pg from 'pg';

/**
 * Runs `use` with the URL of a fresh database, dropped afterwards; prints why and returns false
 * when no server answers (FLAGSTAFF_BENCH_PG_URL, else FLAGSTAFF_TEST_PG_URL, else the local default).
 */
export async function withPostgresDatabase(
  label: string,
  use: (url: string) => Promise<void>,
): Promise<boolean> {
  const pgUrl =
    process.env.FLAGSTAFF_BENCH_PG_URL ??
    process.env.FLAGSTAFF_TEST_PG_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (e) {
    console.log(`postgres   skipped: cannot connect to ${pgUrl} (${(e as Error).message})`);
    return false;
  }
  const db = `flagstaff_${label}_bench_${process.pid}`;
  await admin.query(`CREATE DATABASE ${db}`);
  try {
    const url = new URL(pgUrl);
    url.pathname = `/${db}`;
    await use(url.toString());
    return true;
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.end();
  }
}
