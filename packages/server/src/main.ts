import { jsonLogger, logLevelOf } from './logger.js';
import { serve } from './serve.js';
import { handleSignals } from './shutdown.js';

// `npm start`: the same as `flagstaff serve`, configured by environment variables only.
const running = await serve(process.env);
if (running) handleSignals(running.close, process, jsonLogger(undefined, logLevelOf(process.env.LOG_LEVEL)));
else process.exit(1);
