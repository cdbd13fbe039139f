'use strict';
// `FileReadTracker` as users see it: the native tracker (state in Rust, shared with the engine)
// whose methods never throw on bad arguments. A path that is not a string (a Symbol, an object)
// or a time that is not a number names no read: `recordRead` ignores it and the queries answer
// as for a file never read.

const native = require('./native.cjs');

const isPath = (p) => typeof p === 'string';
const isTime = (t) => typeof t === 'number';

class FileReadTracker extends native.FileReadTracker {
  /** Records that `filePath` was read while its modification time was `mtime` (`stats.mtimeMs`). */
  recordRead(filePath, mtime) {
    if (isPath(filePath) && isTime(mtime)) super.recordRead(filePath, mtime);
  }

  /** True once `recordRead` was called for the file. */
  hasBeenRead(filePath) {
    return isPath(filePath) && super.hasBeenRead(filePath);
  }

  /** The modification time recorded at the last read, or `undefined`. */
  getReadTime(filePath) {
    return isPath(filePath) ? super.getReadTime(filePath) : undefined;
  }

  /** True when the file was read and `currentMtime` differs from the recorded time. */
  checkExternalModification(filePath, currentMtime) {
    return isPath(filePath) && isTime(currentMtime) && super.checkExternalModification(filePath, currentMtime);
  }
}

module.exports = { FileReadTracker };
