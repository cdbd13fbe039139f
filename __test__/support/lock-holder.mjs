// Holds a `flock` from another process (flock(1) running sleep), then stops it with SIGSTOP: the
// "stopped lock holder" every bounded wait must survive.
import { spawn, spawnSync } from 'node:child_process';

/** True when flock(1) is installed (util-linux). */
export const haveFlock = spawnSync('flock', ['--version']).status === 0;

/** True while some process holds the `flock` on `lockFile`. */
function isHeld(lockFile) {
  return spawnSync('flock', ['-n', lockFile, 'true']).status !== 0;
}

/**
 * Takes the lock on `lockFile` in a child process group and stops that group; resolves once it
 * is held. `release()` continues and kills the group.
 */
export async function holdStopped(lockFile) {
  const child = spawn('flock', [lockFile, 'sleep', '600'], { detached: true, stdio: 'ignore' });
  while (!isHeld(lockFile)) {
    if (child.exitCode !== null) throw new Error(`flock exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  process.kill(-child.pid, 'SIGSTOP');
  return {
    release() {
      try {
        process.kill(-child.pid, 'SIGKILL');
        process.kill(-child.pid, 'SIGCONT');
      } catch {
        // already gone
      }
    },
  };
}
