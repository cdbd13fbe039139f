#!/usr/bin/env node
// edit-engine command line: see `edit-engine --help`.
import { main } from '../lib/cli.mjs';

// A reader that stops early (`edit-engine tools | head -3`) closes the pipe: stop quietly, as
// other command-line tools do, instead of dying on an unhandled EPIPE.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const code = await main(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
