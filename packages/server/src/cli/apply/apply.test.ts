import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run.js';
import { type CliTestServer, recordingIo, startCliTestServer } from '../test-server.js';
import { applyDocument } from './apply.js';
import { parseApplyText } from './load.js';

const FILE = `
tagTypes:
  - name: team
    description: Owning team
contextFields:
  - name: plan
    description: Billing plan
    legalValues: [free, { value: pro, description: Paying }]
segments:
  - name: beta-users
    constraints:
      - { contextName: userId, operator: IN, values: ["1", "2"] }
projects:
  - id: payments
    name: Payments
features:
  - name: checkout
    project: payments
    description: New checkout
    tags: ["team:payments"]
    environments:
      development:
        enabled: true
        strategies:
          - name: flexibleRollout
            parameters: { rollout: 50, stickiness: default }
            constraints:
              - { contextName: plan, operator: IN, values: [pro] }
            segments: [beta-users]
        variants:
          - { name: blue, payload: { type: json, value: '{"color":"blue"}' } }
          - { name: green }
      production:
        enabled: false
  - name: search-v2
    project: payments
    type: experiment
    impressionData: true
    environments:
      production:
        enabled: true
      development:
        strategies:
          - name: default
            title: Staff
            constraints:
              - { contextName: currentTime, operator: DATE_AFTER, value: "2026-01-01T00:00:00.000Z" }
              - { contextName: userId, operator: STR_STARTS_WITH, values: [a, B], caseInsensitive: true, inverted: true }
            variants:
              - { name: fast, weight: 300, weightType: fix, payload: { type: number, value: "3" } }
              - { name: slow }
          - name: userWithId
            disabled: true
            parameters: { userIds: "ada,bob" }
        variants:
          - { name: fixed, weight: 1000, weightType: fix, stickiness: userId, overrides: [{ contextName: userId, values: ["1"] }] }
`;

let server: CliTestServer;
let dir: string;
const features = async () =>
  (
    await server.client.get<{ features: { name: string }[] }>('/api/admin/projects/payments/features')
  ).features.map((f) => f.name);

beforeAll(async () => {
  server = await startCliTestServer();
  dir = mkdtempSync(join(tmpdir(), 'flagstaff-apply-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function apply(text: string, ...args: string[]) {
  const path = join(dir, `apply-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, text);
  const io = recordingIo(server);
  const code = await runCli(['apply', path, ...args], io);
  return { code, plan: io.out.join(''), err: io.err.join('') };
}

describe('flagstaff apply', () => {
  it('dry-run prints the plan and writes nothing', async () => {
    const { code, plan } = await apply(FILE, '--dry-run');
    expect(code).toBe(0);
    expect(plan).toContain('+ create project payments');
    expect(plan).toContain('+ create feature payments/checkout');
    expect(plan).toContain('+ create segment beta-users');
    const projects = await server.client.get<{ projects: { id: string }[] }>('/api/admin/projects');
    expect(projects.projects.map((p) => p.id)).not.toContain('payments');
  });

  it('creates everything, then a second apply has an empty plan', async () => {
    const first = await apply(FILE);
    expect(first.code, first.err).toBe(0);
    expect(first.err).toContain('applied');
    expect(await features()).toEqual(expect.arrayContaining(['checkout', 'search-v2']));
    const checkout = await server.client.get<{
      tags: { type: string; value: string }[];
      environments: {
        name: string;
        enabled: boolean;
        strategies: { parameters: Record<string, string> }[];
      }[];
    }>('/api/admin/projects/payments/features/checkout');
    const dev = checkout.environments.find((e) => e.name === 'development');
    expect(dev?.enabled).toBe(true);
    expect(dev?.strategies).toHaveLength(1);
    expect(dev?.strategies[0]?.parameters.rollout).toBe('50');
    expect(checkout.tags).toEqual([{ type: 'team', value: 'payments' }]);

    const second = await apply(FILE);
    expect(second.code).toBe(0);
    expect(second.plan).toBe('No changes: the server already matches the file.\n');
  });

  it('a changed file gives an update plan, and only that change', async () => {
    const changed = FILE.replace('rollout: 50', 'rollout: 75').replace('type: experiment', 'type: release');
    const { plan, code } = await apply(changed);
    expect(code).toBe(0);
    expect(plan).toContain('Plan: 0 to create, 2 to change, 0 to delete, 0 to archive');
    expect(plan).toContain('~ update strategy payments/checkout@development[0]');
    expect(plan).toContain('~ update feature payments/search-v2');
    expect((await apply(changed)).plan).toMatch(/^No changes/);
  });

  it('archives unlisted features of a described project only when pruning', async () => {
    await server.client.request('POST', '/api/admin/projects/payments/features', { name: 'legacy-flag' });
    const kept = await apply(
      FILE.replace('rollout: 50', 'rollout: 75').replace('type: experiment', 'type: release'),
    );
    expect(kept.plan).toMatch(/^No changes/);
    const dry = await apply(FILE, '--prune', '--dry-run');
    expect(dry.plan).toContain('- archive feature payments/legacy-flag');
    expect(await features()).toContain('legacy-flag');
    const pruned = await apply(`prune: true\n${FILE}`);
    expect(pruned.plan).toContain('- archive feature payments/legacy-flag');
    expect(await features()).not.toContain('legacy-flag');
  });

  it('an invalid file is refused with the path of each problem, and nothing is written', async () => {
    const bad = FILE.replace('rollout: 50', 'rollout: lots').replace(
      'name: search-v2',
      'name: search-v3\n    colour: red',
    );
    const { code, err } = await apply(bad);
    expect(code).toBe(1);
    expect(err).toContain(
      'features[0].environments.development.strategies[0].parameters.rollout: expected a number',
    );
    expect(err).toContain('features[1]: unknown key "colour"');
    expect(await features()).not.toContain('search-v3');
    const yaml = await apply('features: [\n  - name');
    expect(yaml.code).toBe(1);
    expect(yaml.err).toMatch(/not valid YAML or JSON \(line \d+/);
  });

  it('names unknown segments, and refuses an enabled environment without strategies', async () => {
    expect(() =>
      parseApplyText(
        'features:\n  - name: a\n    environments:\n      production: { enabled: true, strategies: [] }\n',
        'f.yaml',
      ),
    ).toThrow('features[0].environments.production.strategies: an enabled environment always has a strategy');
    const { code, err } = await apply(
      'features:\n  - name: seg-user\n    environments:\n      development:\n        strategies: [{ segments: [nope] }]\n',
    );
    expect(code).toBe(1);
    expect(err).toContain(
      'features[0].environments.development.strategies[0].segments[0]: no segment "nope"',
    );
  });

  it('takes JSON too, and prints the plan in a readable form', async () => {
    const json = JSON.stringify({
      features: [
        { name: 'from-json', project: 'payments', environments: { development: { enabled: true } } },
      ],
    });
    const { code, plan } = await apply(json);
    expect(code).toBe(0);
    expect(plan).toBe(
      [
        'Plan: 1 to create, 1 to change, 0 to delete, 0 to archive',
        '  + create feature payments/from-json',
        '  ~ update environment payments/from-json@development (enable)',
        '',
      ].join('\n'),
    );
    expect((await apply(json)).plan).toMatch(/^No changes/);
  });

  it('reports the HTTP status and the server message on a refused call', async () => {
    const doc = parseApplyText('projects:\n  - id: "bad id!"\n', 'f.yaml');
    await expect(applyDocument(server.client, doc)).rejects.toThrow(
      /POST \/api\/admin\/projects failed: HTTP 400 ValidationError: /,
    );
  });
});
