import { cleanupFlag } from './cleanup-tool.js';
import type { FlagTool } from './define.js';
import { evaluateFlags, getFlag, listFlags, listStaleFlags } from './read-tools.js';
import { createFlag, setFlagEnabled, setRollout } from './write-tools.js';

/** Every tool, in the order assistants see them. */
export const FLAG_TOOLS: readonly FlagTool[] = [
  listFlags,
  getFlag,
  createFlag,
  setFlagEnabled,
  setRollout,
  evaluateFlags,
  listStaleFlags,
  cleanupFlag,
];
