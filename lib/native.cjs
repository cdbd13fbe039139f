'use strict';
// The napi-generated loader picks the right platform binary; `loadNative` explains its failures.
const native = require('./platform.cjs').loadNative();

// Writes with durability "standard" leave their directory fsync to a background thread: finish
// those before a normal exit, so every write that returned is durable once the process is gone.
process.once('exit', () => native.flushWrites());

module.exports = native;
