import { jsonLogger, logLevelOf } from '../logger.js';
import { serve } from '../serve.js';
import { handleSignals } from '../shutdown.js';
import { ApiError } from './api-client.js';
import { applyDocument, formatPlan } from './apply/apply.js';
import { loadApplyFile } from './apply/load.js';
import { CliError, type CliIo, clientFrom, emit, parseCommand, serverOptions } from './io.js';
import { runMcp } from './mcp.js';
import { exportFeatures, importFeatures, parseExportText, readExportFile } from './transfer.js';
import { catalogFromFile, catalogFromServer, renderTypes } from './typegen.js';
import { USAGE } from './usage.js';

const count = (n: number) => n.toLocaleString('en');
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const featuresIn = (doc: unknown) =>
  doc && typeof doc === 'object' && 'features' in doc && Array.isArray(doc.features)
    ? doc.features.length
    : 0;

/** An export document from a file, or from standard input when the file is `-`. */
async function readExport(path: string, io: CliIo): Promise<unknown> {
  if (path !== '-') return readExportFile(path);
  if (!io.readStdin) throw new CliError('cannot read standard input here', 2);
  return parseExportText(await io.readStdin(), 'standard input');
}

const list = (values: string[] | undefined) =>
  values
    ?.flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);

function noPositionals(positionals: string[], command: string): void {
  if (positionals.length > 0)
    throw new CliError(
      `flagstaff ${command} takes no arguments, not "${positionals[0]}" (see flagstaff ${command} --help)`,
      2,
    );
}

function onePositional(positionals: string[], command: string, what: string): string {
  if (positionals.length !== 1)
    throw new CliError(`flagstaff ${command} takes one ${what} (see flagstaff ${command} --help)`, 2);
  return positionals[0]!;
}

async function runExport(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    {
      ...serverOptions,
      environment: { type: 'string' },
      project: { type: 'string' },
      features: { type: 'string', multiple: true },
      tag: { type: 'string' },
    },
    'export',
  );
  if (values.help) return help('export', io);
  noPositionals(positionals, 'export');
  const client = clientFrom(values, io);
  const features = list(values.features);
  const doc = await exportFeatures(client, {
    environment: values.environment ?? 'development',
    ...(values.project !== undefined ? { project: values.project } : {}),
    ...(values.tag !== undefined ? { tag: values.tag } : {}),
    ...(features !== undefined ? { features } : {}),
  });
  emit(`${JSON.stringify(doc, null, 2)}\n`, values.out, io);
  io.stderr(`exported ${count(featuresIn(doc))} features\n`);
  return 0;
}

async function runImport(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    {
      ...serverOptions,
      environment: { type: 'string' },
      project: { type: 'string' },
      'dry-run': { type: 'boolean' },
    },
    'import',
  );
  if (values.help) return help('import', io);
  const data = await readExport(onePositional(positionals, 'import', 'export file'), io);
  const client = clientFrom(values, io);
  const target = {
    project: values.project ?? 'default',
    environment: values.environment ?? 'development',
    data,
  };
  const started = performance.now();
  // Once the validation passed: a refused import stays one line on stderr.
  await importFeatures(client, target, {
    dryRun: values['dry-run'] ?? false,
    warn: (line) => io.stderr(`${line}\n`),
    importing: () => io.stderr(`importing ${count(featuresIn(data))} features…\n`),
  });
  io.stderr(
    `${values['dry-run'] ? 'validated' : 'imported'} into project ${target.project}, environment ${target.environment}: done in ${seconds(started)}\n`,
  );
  return 0;
}

async function runApply(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    {
      ...serverOptions,
      'dry-run': { type: 'boolean' },
      prune: { type: 'boolean' },
      'no-prune': { type: 'boolean' },
    },
    'apply',
  );
  if (values.help) return help('apply', io);
  const file = loadApplyFile(onePositional(positionals, 'apply', 'file'));
  const client = clientFrom(values, io);
  const prune = values.prune ? true : values['no-prune'] ? false : undefined;
  const plan = await applyDocument(client, file, {
    dryRun: true,
    ...(prune !== undefined ? { prune } : {}),
  });
  emit(formatPlan(plan), values.out, io);
  if (values['dry-run'] || plan.length === 0) return 0;
  for (const [i, step] of plan.entries()) {
    io.stderr(`[${i + 1}/${plan.length}] ${step.op} ${step.target}\n`);
    await step.run();
  }
  io.stderr(`applied ${plan.length} change${plan.length === 1 ? '' : 's'}\n`);
  return 0;
}

async function runTypegen(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    {
      ...serverOptions,
      from: { type: 'string' },
      project: { type: 'string', multiple: true },
    },
    'typegen',
  );
  if (values.help) return help('typegen', io);
  noPositionals(positionals, 'typegen');
  const projects = list(values.project);
  const catalog = values.from
    ? catalogFromFile(loadApplyFile(values.from))
    : await catalogFromServer(clientFrom(values, io), projects);
  const source = values.from ?? values.url ?? io.env.FLAGSTAFF_URL ?? 'the server';
  emit(renderTypes(catalog, { source }), values.out, io);
  return 0;
}

async function runServe(args: string[], io: CliIo): Promise<number | 'running'> {
  const { values, positionals } = parseCommand(
    args,
    { apply: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    'serve',
  );
  if (values.help) return help('serve', io);
  noPositionals(positionals, 'serve');
  const running = await serve(io.env, values.apply);
  if (!running) return 1;
  handleSignals(running.close, process, jsonLogger(undefined, logLevelOf(io.env.LOG_LEVEL)));
  return 'running';
}

function help(command: string, io: CliIo): number {
  io.stdout(USAGE[command] ?? USAGE.main!);
  return 0;
}

const COMMANDS: Record<string, (args: string[], io: CliIo) => Promise<number | 'running'>> = {
  serve: runServe,
  export: runExport,
  import: runImport,
  apply: runApply,
  typegen: runTypegen,
  mcp: (args, io) => runMcp(args, io, () => help('mcp', io)),
};

/**
 * Runs one command line; resolves to the exit code, or `'running'` once `serve` is listening.
 * Failures are reported on stderr as one line (usage errors exit 2, others 1).
 */
export async function runCli(argv: string[], io: CliIo): Promise<number | 'running'> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help')
    return help(rest[0] ?? 'main', io);
  const run = COMMANDS[command];
  if (!run) {
    io.stderr(`flagstaff: unknown command "${command}"\n\n${USAGE.main}`);
    return 2;
  }
  try {
    return await run(rest, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`flagstaff ${command}: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof ApiError) {
      io.stderr(`flagstaff ${command}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
