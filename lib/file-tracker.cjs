'use strict';
// Probe's `FileTracker` as users see it: the native tracker (state in Rust, shared with the engine)
// plus Probe's inspectable surface: read-only `_seenFiles` (Set-like) and `_contentRecords`
// (Map-like) views, and `debug: true` lines printed through `console.error` in Probe's format.

const nodePath = require('node:path');
const native = require('./native.cjs');

/** Probe's path key: `path.resolve` (no symlinks). */
const keyOf = (p) => (typeof p === 'string' && p !== '' ? nodePath.resolve(p) : p);

/** A content record with Probe's key order (seen by JSON.stringify and snapshots). */
const probeRecord = (r) =>
  r && { contentHash: r.contentHash, startLine: r.startLine, endLine: r.endLine, symbolName: r.symbolName, source: r.source, timestamp: r.timestamp };

function readOnly(what) {
  throw new TypeError(`FileTracker.${what} is a read-only view; change it with markFileSeen, trackSymbolContent, invalidateFileRecords or clear`);
}

/** A live, read-only Set-like view of the seen files' keys (sorted). */
class SeenFilesView {
  #tracker;
  constructor(tracker) {
    this.#tracker = tracker;
  }
  get size() {
    return this.#tracker.seenFileKeys().length;
  }
  has(key) {
    return this.#tracker.seenFileKeys().includes(key);
  }
  values() {
    return this.#tracker.seenFileKeys()[Symbol.iterator]();
  }
  keys() {
    return this.values();
  }
  *entries() {
    for (const k of this.#tracker.seenFileKeys()) yield [k, k];
  }
  forEach(fn, thisArg) {
    for (const k of this.#tracker.seenFileKeys()) fn.call(thisArg, k, k, this);
  }
  [Symbol.iterator]() {
    return this.values();
  }
  add() {
    readOnly('_seenFiles');
  }
  delete() {
    readOnly('_seenFiles');
  }
  clear() {
    readOnly('_seenFiles');
  }
}

/** A live, read-only Map-like view of the symbol content records (`"<path>#<symbol>"` -> record). */
class ContentRecordsView {
  #tracker;
  constructor(tracker) {
    this.#tracker = tracker;
  }
  #pairs() {
    return this.#tracker.contentRecordEntries().map((e) => [e.key, probeRecord(e.record)]);
  }
  get size() {
    return this.#tracker.contentRecordEntries().length;
  }
  has(key) {
    return this.#pairs().some(([k]) => k === key);
  }
  get(key) {
    const found = this.#pairs().find(([k]) => k === key);
    return found ? found[1] : undefined;
  }
  keys() {
    return this.#pairs().map(([k]) => k)[Symbol.iterator]();
  }
  values() {
    return this.#pairs().map(([, v]) => v)[Symbol.iterator]();
  }
  entries() {
    return this.#pairs()[Symbol.iterator]();
  }
  forEach(fn, thisArg) {
    for (const [k, v] of this.#pairs()) fn.call(thisArg, v, k, this);
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  set() {
    readOnly('_contentRecords');
  }
  delete() {
    readOnly('_contentRecords');
  }
  clear() {
    readOnly('_contentRecords');
  }
}

/**
 * Probe's `FileTracker({ debug })`. Pass it to tool factories as `fileTracker`. With
 * `debug: true` its methods print Probe's `[FileTracker] ...` lines through `console.error`
 * (lines from tool calls and the async `trackFiles*` methods go to stderr directly).
 */
class FileTracker extends native.FileTracker {
  #seen = new SeenFilesView(this);
  #records = new ContentRecordsView(this);

  /** Read-only view of the seen files (Probe's `Set`): `size`, `has(key)`, iteration. */
  get _seenFiles() {
    return this.#seen;
  }

  /** Read-only view of the symbol records (Probe's `Map`): `size`, `has`, `get`, iteration. */
  get _contentRecords() {
    return this.#records;
  }

  #log(line) {
    if (this.debug) console.error(`[FileTracker] ${line}`);
  }

  markFileSeen(resolvedPath) {
    super.markFileSeen(resolvedPath);
    this.#log(`Marked as seen: ${keyOf(resolvedPath)}`);
  }

  trackSymbolContent(resolvedPath, symbolName, code, startLine, endLine, source) {
    super.trackSymbolContent(resolvedPath, symbolName, code, startLine, endLine, source);
    if (!this.debug) return;
    const record = super.getSymbolRecord(resolvedPath, symbolName);
    const key = `${keyOf(resolvedPath)}#${symbolName}`;
    this.#log(`Tracked symbol ${key} (hash: ${record ? record.contentHash : '?'}, lines ${startLine}-${endLine})`);
  }

  trackSymbolAfterWrite(resolvedPath, symbolName, code, startLine, endLine) {
    this.trackSymbolContent(resolvedPath, symbolName, code, startLine, endLine, 'edit');
  }

  /** Probe's record `{ contentHash, startLine, endLine, symbolName, source, timestamp }`, or null. */
  getSymbolRecord(resolvedPath, symbolName) {
    return probeRecord(super.getSymbolRecord(resolvedPath, symbolName)) ?? null;
  }

  /** `{ ok, editCount }`, plus `message` when a re-read is needed (Probe's key order). */
  checkTextEditStaleness(resolvedPath) {
    const { ok, editCount, message } = super.checkTextEditStaleness(resolvedPath);
    return message === undefined ? { ok, editCount } : { ok, editCount, message };
  }

  recordTextEdit(resolvedPath) {
    super.recordTextEdit(resolvedPath);
    if (this.debug) this.#log(`Text edit #${super.checkTextEditStaleness(resolvedPath).editCount} for ${keyOf(resolvedPath)}`);
  }

  invalidateFileRecords(resolvedPath) {
    super.invalidateFileRecords(resolvedPath);
    this.#log(`Invalidated content records for ${resolvedPath}`);
  }
}

module.exports = { FileTracker };
