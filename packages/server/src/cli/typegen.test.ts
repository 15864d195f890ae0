import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDocument } from './apply/apply.js';
import { parseApplyText } from './apply/load.js';
import { runCli } from './run.js';
import { type CliTestServer, recordingIo, startCliTestServer } from './test-server.js';

const FILE = `
features:
  - name: checkout
    environments:
      development:
        enabled: true
        variants:
          - { name: blue, payload: { type: json, value: '{"a":1}' } }
          - { name: green }
  - name: new-search
    environments:
      production:
        strategies:
          - variants: [{ name: fast, payload: { type: number, value: "3" } }]
`;

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const root = join(here, '../../../..');

/** Type-checks the generated module with a usage file; returns the diagnostics as text. */
function typecheck(dir: string, generated: string, usage: string): string[] {
  writeFileSync(join(dir, 'flags.ts'), generated);
  writeFileSync(join(dir, 'usage.ts'), usage);
  const program = ts.createProgram([join(dir, 'usage.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
    paths: {
      'unleash-client': [join(dirname(require.resolve('unleash-client/package.json')), 'lib/index.d.ts')],
      '@flagstaff/core': [join(root, 'packages/core/src/index.ts')],
    },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) => `${d.file?.fileName.split('/').pop()}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}

let server: CliTestServer;
let dir: string;
beforeAll(async () => {
  server = await startCliTestServer();
  dir = mkdtempSync(join(tmpdir(), 'flagstaff-typegen-'));
  await applyDocument(server.client, parseApplyText(FILE, 'flags.yaml'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const USAGE = `
import type { CompiledFeatureSet } from '@flagstaff/core';
import { initialize } from 'unleash-client';
import { type FlagName, flagNames, typedFlags } from './flags';

const names: readonly FlagName[] = flagNames;
const unleash = initialize({ url: 'http://127.0.0.1:1/api', appName: 'typegen-test', disableAutoStart: true });

declare const evaluator: CompiledFeatureSet;
for (const flags of [typedFlags(evaluator), typedFlags(unleash)]) {
  flags.isEnabled('new-search', {});
  // @ts-expect-error not a flag name
  flags.isEnabled('nope', {});
  const variant = flags.getVariant('checkout', {});
  if (variant.name === 'blue') {
    const type: 'json' = variant.payload.type;
    JSON.parse(variant.payload.value);
    void type;
  }
  // @ts-expect-error checkout has no variant "red"
  if (variant.name === 'red') void variant;
  const fast = flags.getVariant('new-search', {});
  if (fast.enabled) {
    const type: 'number' = fast.payload.type;
    void type;
  }
}
void names;
`;

describe('flagstaff typegen', () => {
  it('from a server: the names and variant payload types compile, typedFlags fits the evaluator and unleash-client', async () => {
    const io = recordingIo(server);
    expect(await runCli(['typegen'], io)).toBe(0);
    const generated = io.out.join('');
    expect(generated).toContain(
      "export const flagNames = ['checkout', 'new-search'] as const;".replace(/'/g, '"'),
    );
    expect(typecheck(dir, generated, USAGE)).toEqual([]);
  });

  it('from an apply file gives the same module, written to --out', async () => {
    const file = join(dir, 'flags.yaml');
    writeFileSync(file, FILE);
    const out = join(dir, 'from-file.ts');
    const io = recordingIo();
    expect(await runCli(['typegen', '--from', file, '--out', out], io)).toBe(0);
    const fromServer = recordingIo(server);
    expect(await runCli(['typegen'], fromServer), fromServer.err.join('')).toBe(0);
    const strip = (text: string) => text.split('\n').slice(1).join('\n');
    expect(strip(readFileSync(out, 'utf8'))).toBe(strip(fromServer.out.join('')));
  });

  it('without flags still compiles; needing nothing but itself', () => {
    const io = recordingIo();
    const empty = join(dir, 'empty.yaml');
    writeFileSync(empty, '{}');
    return runCli(['typegen', '--from', empty], io).then((code) => {
      expect(code).toBe(0);
      expect(
        typecheck(
          dir,
          io.out.join(''),
          "import { flagNames } from './flags';\nconst n: 0 = flagNames.length;\nvoid n;\n",
        ),
      ).toEqual([]);
    });
  });
});
