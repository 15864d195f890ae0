import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeStoreContract } from '@flagstaff/core/testing';
import { afterAll } from 'vitest';
import { sqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'flagstaff-sqlite-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

describeStoreContract('sqlite file', () => sqliteStore({ filename: join(dir, `store-${++n}.db`) }));
describeStoreContract('sqlite :memory:', () => sqliteStore({ filename: ':memory:' }));
