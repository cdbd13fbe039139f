'use strict';
// Requires edit-engine as the platform simulate-platform.cjs fakes (SIMULATE_* variables) and
// prints `LOADED` or the loader's error message. A script rather than `node -r … -e …`, so that
// Bun and Deno, which take files but not Node's flags, run it too.
require('./simulate-platform.cjs');

try {
  require('../../lib/index.cjs');
  console.log('LOADED');
} catch (error) {
  console.log(error.message);
}
