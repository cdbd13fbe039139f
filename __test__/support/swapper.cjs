// Swaps a path in a tight loop for a while, to race the engine between its checks and its write.
//
//   node swapper.cjs <mode> <target> <hold> <durationMs> [linkTarget]
//
// modes (each cycle ends with the original restored, the same inode moved back):
//   symlink-file  target (a file) -> moved to hold, replaced by a symlink to linkTarget, restored
//   symlink-dir   target (a dir)  -> moved to hold, replaced by a symlink to linkTarget, restored
//   dir           target (a file) -> moved to hold, replaced by an empty directory, restored
//   delete        target (a file) -> moved to hold (absent), restored
// Prints `{"cycles":N,"clobbers":M}` at the end (clobbers: a file the engine created at target
// while it was away, removed by the restore). Errors of single steps (the engine created the path meanwhile)
// are tolerated; the original is always restored before exit.
'use strict';
const fs = require('node:fs');

const [mode, target, hold, durationMs, linkTarget] = process.argv.slice(2);
const until = Date.now() + Number(durationMs);
const spin = (n) => {
  let x = 0;
  for (let i = 0; i < n; i++) x += i;
  return x;
};
const attempt = (f) => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};

let clobbers = 0;
/** Codes of a put-back refused because something sits at target. */
const TAKEN = new Set(['EEXIST', 'ENOTEMPTY', 'ENOTDIR', 'EISDIR']);

/**
 * Puts the original back at target, refusing (a TAKEN code) when something is there: a file by
 * link + unlink (a plain rename would silently replace a file the engine created meanwhile), a
 * directory by rename (links to directories are not allowed; renaming a directory onto a file,
 * a symlink or a non-empty directory is refused).
 */
function putBack() {
  if (fs.lstatSync(hold).isDirectory()) return fs.renameSync(hold, target);
  fs.linkSync(hold, target);
  fs.unlinkSync(hold);
}

/**
 * Moves the original back without overwriting anything (see putBack). Whatever sits at target (a
 * symlink, a dir, a file the engine created while the original was away) is removed first;
 * a file (or a directory holding files) counts as a clobber: that write is undone by this test, not lost by the engine.
 */
function restore() {
  if (!fs.existsSync(hold)) return;
  for (let tries = 0; tries < 1000; tries++) {
    try {
      putBack();
      return;
    } catch (e) {
      if (!TAKEN.has(e.code)) throw e;
    }
    attempt(() => {
      const st = fs.lstatSync(target);
      // A directory with entries: the engine created it (and files in it) while the original was away.
      if (st.isFile() || (st.isDirectory() && fs.readdirSync(target).length > 0)) clobbers++;
      if (st.isDirectory()) fs.rmSync(target, { recursive: true });
      else fs.unlinkSync(target);
    });
  }
  throw new Error(`could not restore ${target}`);
}

let cycles = 0;
while (Date.now() < until) {
  if (!attempt(() => fs.renameSync(target, hold))) continue;
  if (mode === 'symlink-file' || mode === 'symlink-dir') attempt(() => fs.symlinkSync(linkTarget, target));
  else if (mode === 'dir') attempt(() => fs.mkdirSync(target));
  // Random dwell times, so that every phase of an edit meets every state of the path.
  spin(Math.random() * 40000);
  restore();
  spin(Math.random() * 400000);
  cycles++;
}
restore();
process.stdout.write(JSON.stringify({ cycles, clobbers }));
