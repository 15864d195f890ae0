import type { ApiClient } from '../api-client.js';
import { loadApplyFile } from './load.js';
import { buildPlan, type Step } from './plan.js';
import type { ApplyFile } from './schema.js';
import { readServerState } from './state.js';

const SIGN: Record<Step['op'], string> = { create: '+', update: '~', delete: '-', archive: '-' };

/** The plan as printed: one line per change, `+` create, `~` update, `-` delete or archive. */
export function formatPlan(steps: Step[]): string {
  if (steps.length === 0) return 'No changes: the server already matches the file.\n';
  const lines = steps.map((s) => `  ${SIGN[s.op]} ${s.op} ${s.target}${s.detail ? ` (${s.detail})` : ''}`);
  const count = (op: Step['op']) => steps.filter((s) => s.op === op).length;
  const summary = `${count('create')} to create, ${count('update')} to change, ${count('delete')} to delete, ${count('archive')} to archive`;
  return `Plan: ${summary}\n${lines.join('\n')}\n`;
}

export interface ApplyOptions {
  dryRun?: boolean;
  /** Overrides the file's `prune`. */
  prune?: boolean;
  /** Progress, one line per step as it runs. */
  log?: (line: string) => void;
}

/** Reads the server, plans, and (unless a dry run) runs the plan in order; returns the plan. */
export async function applyDocument(
  client: ApiClient,
  file: ApplyFile,
  options: ApplyOptions = {},
): Promise<Step[]> {
  const state = await readServerState(client, file);
  const steps = buildPlan(file, state, client, options.prune === undefined ? {} : { prune: options.prune });
  if (options.dryRun) return steps;
  for (const [i, step] of steps.entries()) {
    options.log?.(
      `[${i + 1}/${steps.length}] ${step.op} ${step.target}${step.detail ? ` (${step.detail})` : ''}`,
    );
    await step.run();
  }
  return steps;
}

/** `applyDocument` for a file on disk (validated first: nothing is written when it is invalid). */
export function applyFile(client: ApiClient, path: string, options: ApplyOptions = {}): Promise<Step[]> {
  return applyDocument(client, loadApplyFile(path), options);
}
