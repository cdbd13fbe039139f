#!/usr/bin/env node
// edit-engine command line: see `edit-engine --help`.
import { main } from '../lib/cli.mjs';

const code = await main(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
