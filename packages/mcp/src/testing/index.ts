export {
  callTool,
  exerciseEveryTool,
  expectInvalidArgumentsRefused,
  expectViewerRefused,
  TOOL_NAMES,
} from './tool-scenario.js';
