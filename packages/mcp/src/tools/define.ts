import type { z } from 'zod';
import type { FlagBackend } from '../backend.js';

/** A failure to show the assistant as is: its message names the argument or resource. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

/** What a tool answers: a short line for people, and the data (sent as text and as structured content). */
export interface ToolOutput {
  summary: string;
  data: Record<string, unknown>;
}

/** MCP tool hints (the SDK's ToolAnnotations, kept to what the tools state). */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
}

/** One tool, written once over the backend; both transports register the same list. */
export interface FlagTool {
  name: string;
  title: string;
  description: string;
  /** Arguments; the SDK checks calls against it and lists it as JSON Schema. */
  input: z.ZodObject;
  hints: ToolHints;
  run(backend: FlagBackend, args: unknown): Promise<ToolOutput>;
}

/**
 * Keeps a tool's `run` typed by its schema. The SDK parses the arguments with `input` before `run`
 * is called, so the parsed value is what `run` receives.
 */
export function defineTool<S extends z.ZodObject>(tool: {
  name: string;
  title: string;
  description: string;
  input: S;
  hints: ToolHints;
  run(backend: FlagBackend, args: z.output<S>): Promise<ToolOutput>;
}): FlagTool {
  return { ...tool, run: (backend, args) => tool.run(backend, args as z.output<S>) };
}

/**
 * The project of a live flag: `project` when given, else found by name (flag names are unique
 * across projects), so an assistant that knows only the name in the code can still ask.
 */
export async function projectOf(backend: FlagBackend, name: string, project?: string): Promise<string> {
  if (project !== undefined) return project;
  const { features } = await backend.searchFeatures({ query: name, sortBy: 'name', limit: '100' });
  const found = features.find((f) => f.name === name);
  if (!found)
    throw new ToolError(
      `Could not find a live flag named "${name}" that you may see; check "name", or give "project".`,
    );
  return found.project;
}
