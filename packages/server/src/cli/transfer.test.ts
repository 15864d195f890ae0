import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDocument } from './apply/apply.js';
import { parseApplyText } from './apply/load.js';
import { runCli } from './run.js';
import { type CliTestServer, recordingIo, startCliTestServer } from './test-server.js';

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
