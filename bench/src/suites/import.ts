// Importing a large export document (POST /api/admin/features-batch/import's service): 10,000
// features, each with a strategy (a constraint, parameters), enabled in the environment, a tag on
// every tenth, into a fresh SQLite store, then into PostgreSQL. Reports the validation alone and the
// import (validation included, one transaction), and the document's size. BENCH_IMPORT_FEATURES
// overrides the count.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFlagstaff, type Store, SYSTEM } from '@flagstaff/core';
import { postgresStore } from '@flagstaff/store-postgres';
import { sqliteStore } from '@flagstaff/store-sqlite';
import { withPostgresDatabase } from '../postgres-database.js';

const COUNT = Number(process.env.BENCH_IMPORT_FEATURES ?? 10_000);

/** An export document (the shape POST /api/admin/features-batch/export answers) of `count` features. */
export function exportDocument(count: number) {
  const names = Array.from({ length: count }, (_, i) => `bulk-feature-${String(i).padStart(5, '0')}`);
  return {
    features: names.map((name) => ({
      name,
      type: 'release',
      project: 'default',
      description: `Imported feature ${name}`,
      impressionData: false,
    })),
    featureStrategies: names.map((featureName, i) => ({
      featureName,
      name: 'flexibleRollout',
      title: null,
      disabled: false,
      sortOrder: 0,
      parameters: { rollout: String(i % 100), stickiness: 'default', groupId: featureName },
      constraints: [{ contextName: 'userId', operator: 'IN', values: [`${i}`, `${i + 1}`] }],
      segments: [],
      variants: [],
    })),
    featureEnvironments: names.map((featureName, i) => ({
      featureName,
      name: featureName,
      environment: 'development',
      enabled: i % 2 === 0,
      variants: [],
    })),
    contextFields: [],
    featureTags: names
      .filter((_, i) => i % 10 === 0)
      .map((featureName) => ({ featureName, tagType: 'simple', tagValue: 'bulk' })),
    segments: [],
    tagTypes: [{ name: 'simple', description: 'Used to simplify filtering of features', icon: '#' }],
    dependencies: [],
  };
}

async function importInto(label: string, store: () => Promise<Store>): Promise<void> {
  const data = exportDocument(COUNT);
  const body = { project: 'default', environment: 'development', data };
  const flagstaff = await createFlagstaff({ store: await store() });
  try {
    const bytes = Buffer.byteLength(JSON.stringify(body));
    let started = performance.now();
    const validation = await flagstaff.imports.validate(SYSTEM, body);
    const validateMs = performance.now() - started;
    if (validation.errors.length > 0) throw new Error(JSON.stringify(validation.errors));
    started = performance.now();
    await flagstaff.imports.import(SYSTEM, body);
    const importMs = performance.now() - started;
    const exported = (await flagstaff.exports.export(SYSTEM, {
      environment: 'development',
      project: 'default',
    })) as { features: unknown[] };
    if (exported.features.length !== COUNT) throw new Error(`${exported.features.length} features came back`);
    console.log(
      `${label.padEnd(10)} ${COUNT.toLocaleString('en')} features (${(bytes / 1024 ** 2).toFixed(1)} MB): validate ${(validateMs / 1000).toFixed(2)} s, import ${(importMs / 1000).toFixed(2)} s`,
    );
  } finally {
    await flagstaff.close();
  }
}

export default async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'flagstaff-bench-import-'));
  try {
    await importInto('sqlite', () => sqliteStore({ filename: join(dir, 'import.db') }));
    await withPostgresDatabase('import', (url) =>
      importInto('postgres', () => postgresStore({ connectionString: url, schema: 'import_bench' })),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
