export type { FlagBackend, StrategyAt } from './backend.js';
export { createFlagstaffMcpServer, MCP_SERVER_VERSION, type McpErrorLog } from './create-server.js';
export { createFacadeBackend } from './facade-backend.js';
export { type AdminApi, createHttpBackend } from './http-backend.js';
export {
  createMcpHttpHandler,
  type McpHttpHandler,
  type McpHttpRequest,
  type McpHttpResponse,
} from './http-handler.js';
export { serveMcpOverStdio } from './stdio.js';
export { typegenKey } from './tools/cleanup-tool.js';
export { type FlagTool, ToolError, type ToolOutput } from './tools/define.js';
export { FLAG_TOOLS } from './tools/index.js';
