// Files whose every state is computable: deterministic filler around one marker line `gen N`.
// Shared by the crash worker (which flips `gen N` -> `gen N+1`) and the crash test (which checks
// that a file is exactly one of these states).
'use strict';

/** Filler text of about `bytes` bytes that never contains "gen ". */
function filler(rel, part, bytes) {
  const lines = [];
  let size = 0;
  for (let k = 0; size < bytes; k++) {
    const l = `${rel} ${part} line ${k} lorem ipsum dolor sit amet ${(k * 2654435761) % 1000003}`;
    lines.push(l);
    size += l.length + 1;
  }
  return lines.join('\n') + '\n';
}

/** The file of `size` bytes at generation `gen`, and where its marker line is. */
function layout(rel, size) {
  const before = filler(rel, 'head', Math.floor(size / 2));
  const after = filler(rel, 'tail', Math.floor(size / 2));
  const markerLine = before.split('\n').length; // 1-based line of the marker
  return { before, after, markerLine, content: (gen) => `${before}gen ${gen}\n${after}` };
}

/** The generation `text` is in, or -1 when it is none of the computed states (torn). */
function parseGeneration(lay, text) {
  if (!text.startsWith(lay.before) || !text.endsWith(lay.after)) return -1;
  const mid = text.slice(lay.before.length, text.length - lay.after.length);
  const m = /^gen (\d+)\n$/.exec(mid);
  return m ? Number(m[1]) : -1;
}

module.exports = { layout, parseGeneration };
