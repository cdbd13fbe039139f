// The engine gives modification times as Node computes `stats.mtimeMs` (with the fraction of a
// millisecond); Deno's `stats.mtimeMs` is cut to whole milliseconds.

/** `engineMs` as this runtime's `fs.statSync(p).mtimeMs` would show it. */
export const asRuntimeMtime = (engineMs) => (globalThis.Deno ? Math.floor(engineMs) : engineMs);
