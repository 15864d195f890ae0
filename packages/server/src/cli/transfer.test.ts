import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDocument } from './apply/apply.js';
import { parseApplyText } from './apply/load.js';
import type { CliIo } from './io.js';
import { runCli } from './run.js';
import { type CliTestServer, largeExport, recordingIo, startCliTestServer } from './test-server.js';

const SEED = `
contextFields:
  - { name: plan, legalValues: [free, pro] }
segments:
  - name: beta-users
    constraints: [{ contextName: userId, operator: IN, values: ["7"] }]
features:
  - name: checkout
    description: New checkout
    tags: ["team:payments"]
    environments:
      development:
        enabled: true
        strategies:
          - parameters: { rollout: 30 }
            constraints: [{ contextName: plan, operator: IN, values: [pro] }]
            segments: [beta-users]
        variants: [{ name: blue, payload: { type: string, value: b } }]
  - name: search-v2
    type: experiment
    environments:
      development: { enabled: false }
`;

/** Ids are each instance's own: strategies and segments compare by content and segment name. */
function comparable(doc: {
  featureStrategies: { id?: string; segments: number[] }[];
  segments: { id: number; name: string }[];
}) {
  const names = new Map(doc.segments.map((s) => [s.id, s.name]));
  return {
    ...doc,
    featureStrategies: doc.featureStrategies.map(({ id: _id, segments, ...rest }) => ({
      ...rest,
      segments: segments.map((id) => names.get(id)),
    })),
    segments: doc.segments.map((s) => s.name),
  };
}

let source: CliTestServer;
let target: CliTestServer;
let dir: string;
beforeAll(async () => {
  [source, target] = await Promise.all([startCliTestServer(), startCliTestServer()]);
  dir = mkdtempSync(join(tmpdir(), 'flagstaff-transfer-'));
  await applyDocument(source.client, parseApplyText(SEED, 'seed.yaml'));
  // The segment is matched by name on import: it must exist on the target.
  await applyDocument(target.client, parseApplyText('segments: [{ name: beta-users }]', 'seed.yaml'));
});
afterAll(async () => {
  await Promise.all([source.close(), target.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('flagstaff export / import', () => {
  it('export → import (a dry run first writes nothing) into a fresh instance → export gives the same document', async () => {
    const file = join(dir, 'export.json');
    const io = recordingIo(source);
    expect(await runCli(['export', '--project', 'default', '--out', file], io)).toBe(0);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    expect(exported.features.map((f: { name: string }) => f.name).sort()).toEqual(['checkout', 'search-v2']);

    const dry = recordingIo(target);
    expect(await runCli(['import', file, '--dry-run'], dry)).toBe(0);
    expect(dry.err.join('')).toContain('validated into project default');
    const untouched = await target.client.get<{ features: unknown[] }>(
      '/api/admin/projects/default/features',
    );
    expect(untouched.features).toEqual([]);

    const importIo = recordingIo(target);
    expect(
      await runCli(['import', file, '--project', 'default', '--environment', 'development'], importIo),
    ).toBe(0);
    expect(importIo.err.join('')).toContain('imported into project default, environment development');

    const again = recordingIo(target);
    expect(await runCli(['export', '--project', 'default'], again)).toBe(0);
    expect(comparable(JSON.parse(again.out.join('')))).toEqual(comparable(exported));
  });

  it('narrows by feature names', async () => {
    const io = recordingIo(source);
    expect(await runCli(['export', '--features', 'search-v2'], io)).toBe(0);
    const doc = JSON.parse(io.out.join(''));
    expect(doc.features.map((f: { name: string }) => f.name)).toEqual(['search-v2']);
  });

  it('a refused import names the problems and writes nothing', async () => {
    const io = recordingIo(source);
    await runCli(['export', '--project', 'default'], io);
    const file = join(dir, 'bad.json');
    writeFileSync(file, io.out.join(''));
    const refused = recordingIo(target);
    expect(await runCli(['import', file, '--project', 'nowhere'], refused)).toBe(1);
    expect(refused.err.join('')).toMatch(/^flagstaff import: .*nowhere/);
  });

  it('fails with one line: HTTP status and the server message, or a bad token, or bad input', async () => {
    const unknown = recordingIo(source);
    expect(await runCli(['export', '--features', 'no-such-flag'], unknown)).toBe(1);
    expect(unknown.err.join('')).toMatch(
      /^flagstaff export: POST \/api\/admin\/features-batch\/export failed: HTTP 404 NotFoundError: .*no-such-flag.*\n$/,
    );
    const io = recordingIo(source);
    io.env.FLAGSTAFF_TOKEN = 'wrong';
    expect(await runCli(['export'], io)).toBe(1);
    expect(io.err.join('')).toContain('HTTP 401');
    const noUrl = recordingIo();
    expect(await runCli(['export'], noUrl)).toBe(2);
    expect(noUrl.err.join('')).toContain('pass --url or set FLAGSTAFF_URL');
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, 'nope');
    const badFile = recordingIo(target);
    expect(await runCli(['import', notJson], badFile)).toBe(1);
    expect(badFile.err.join('')).toContain('is not JSON');
    const unwritable = recordingIo(source);
    expect(await runCli(['export', '--out', join(dir, 'no-such-dir', 'x.json')], unwritable)).toBe(1);
    expect(unwritable.err.join('')).toMatch(/^flagstaff export: cannot write .*x\.json: ENOENT/);
    const notFlagstaff = recordingIo();
    notFlagstaff.env.FLAGSTAFF_URL = 'http://127.0.0.1:1';
    expect(await runCli(['export'], notFlagstaff)).toBe(1);
    expect(notFlagstaff.err.join('')).toContain('could not reach the server');
    const usage = recordingIo(source);
    expect(await runCli(['export', '--colour'], usage)).toBe(2);
    expect(usage.err.join('')).toContain("Unknown option '--colour'");
  });
});

describe('flagstaff export | flagstaff import - of a project past 100 kB', () => {
  const COUNT = 300;
  let big: CliTestServer;
  let fresh: CliTestServer;
  let small: CliTestServer;
  beforeAll(async () => {
    [big, fresh, small] = await Promise.all([
      startCliTestServer(),
      startCliTestServer(),
      startCliTestServer({ FLAGSTAFF_IMPORT_BODY_LIMIT: '50kb' }),
    ]);
    await big.client.request('POST', '/api/admin/features-batch/import', {
      project: 'default',
      environment: 'development',
      data: largeExport(COUNT),
    });
  });
  afterAll(async () => {
    await Promise.all([big.close(), fresh.close(), small.close()]);
  });

  /** What `flagstaff export` printed, fed to `flagstaff import -` as its standard input. */
  const piped = (server: CliTestServer, text: string): CliIo & { err: string[] } => ({
    ...recordingIo(server),
    readStdin: async () => text,
  });

  it('exports it whole, imports it from standard input into a fresh server, with progress on stderr', async () => {
    const exporting = recordingIo(big);
    expect(await runCli(['export', '--project', 'default'], exporting)).toBe(0);
    expect(exporting.err.join('')).toBe(`exported ${COUNT} features\n`);
    const text = exporting.out.join('');
    expect(Buffer.byteLength(text)).toBeGreaterThan(100 * 1024);

    const importing = piped(fresh, text);
    expect(await runCli(['import', '-', '--project', 'default'], importing)).toBe(0);
    expect(importing.err.join('')).toMatch(
      new RegExp(
        `^(warning: .*\n)*importing ${COUNT} features…\nimported into project default, environment development: done in \\d+\\.\\d s\n$`,
      ),
    );

    const arrived = await fresh.client.request<{
      features: { name: string }[];
      featureStrategies: { featureName: string; constraints: { values: string[] }[] }[];
    }>('POST', '/api/admin/features-batch/export', { environment: 'development', project: 'default' });
    expect(arrived.features).toHaveLength(COUNT);
    expect(arrived.featureStrategies).toHaveLength(COUNT);
    expect(
      arrived.featureStrategies.find((s) => s.featureName === 'large-feature-0123')?.constraints[0]?.values,
    ).toEqual(['123', '124', '125']);
  });

  it('a target whose FLAGSTAFF_IMPORT_BODY_LIMIT is smaller refuses it with a 413 naming the limit', async () => {
    const exporting = recordingIo(big);
    expect(await runCli(['export', '--project', 'default'], exporting)).toBe(0);
    const importing = piped(small, exporting.out.join(''));
    expect(await runCli(['import', '-'], importing)).toBe(1);
    expect(importing.err.join('')).toMatch(
      new RegExp(`^flagstaff import: .*HTTP 413 ContentTooLarge: .*${50 * 1024} bytes`),
    );
    const untouched = await small.client.get<{ features: unknown[] }>('/api/admin/projects/default/features');
    expect(untouched.features).toEqual([]);
  });
});
