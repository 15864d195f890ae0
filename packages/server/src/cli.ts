#!/usr/bin/env node
import { processIo } from './cli/io.js';
import { runCli } from './cli/run.js';

// The `flagstaff` bin. `serve` keeps the process alive; every other command exits with its code.
const result = await runCli(process.argv.slice(2), processIo);
if (result !== 'running') process.exitCode = result;
