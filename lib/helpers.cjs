'use strict';
// Probe's pure helpers with Probe's argument coercions; the work is native and synchronous.

const native = require('./native.cjs');

const asLines = (lines) => (Array.isArray(lines) ? lines.map((l) => (l == null ? '' : String(l))) : []);
const asPosition = (p) => (p === 'before' || p === 'after' ? p : undefined);
const asLineNumber = (n) => (Number.isFinite(Number(n)) ? Math.max(0, Math.trunc(Number(n))) : 0);

function computeContentHash(content) {
  return native.computeContentHash(content ? String(content) : '');
}

/** `{ matchedText, count, strategy }` in Probe's key order (seen by JSON.stringify and snapshots), or null. */
function findFuzzyMatch(content, searchString) {
  if (typeof content !== 'string' || typeof searchString !== 'string' || searchString.trim() === '') return null;
  const found = native.findFuzzyMatch(content, searchString);
  return found && { matchedText: found.matchedText, count: found.count, strategy: found.strategy };
}

function lineTrimmedMatch(contentLines, searchLines) {
  if (!Array.isArray(searchLines) || searchLines.length === 0) return null;
  return native.lineTrimmedMatch(asLines(contentLines), asLines(searchLines));
}

function whitespaceNormalizedMatch(content, search) {
  if (typeof content !== 'string' || typeof search !== 'string' || search.trim() === '') return null;
  return native.whitespaceNormalizedMatch(content, search);
}

function indentFlexibleMatch(contentLines, searchLines) {
  if (!Array.isArray(searchLines) || searchLines.length === 0) return null;
  return native.indentFlexibleMatch(asLines(contentLines), asLines(searchLines));
}

function computeLineHash(line) {
  return native.computeLineHash(line ? String(line) : '');
}

function parseLineRef(ref) {
  if (ref === undefined || ref === null) return null;
  const parsed = native.parseLineRef(String(ref));
  return parsed ? { line: parsed.line, hash: parsed.hash ?? null } : null;
}

function validateLineHash(lineNum, hash, fileLines) {
  const n = Number(lineNum);
  if (!Number.isFinite(n)) return { valid: false, actualHash: '', actualContent: '' };
  return native.validateLineHash(Math.trunc(n), String(hash ?? ''), asLines(fileLines));
}

function annotateOutputWithHashes(output) {
  if (!output || typeof output !== 'string') return output;
  return native.annotateOutputWithHashes(output);
}

function stripHashlinePrefixes(text) {
  if (!text || typeof text !== 'string') return { cleaned: text || '', stripped: false };
  return native.stripHashlinePrefixes(text);
}

function stripEchoedBoundaries(newStr, fileLines, startLine, endLine, position) {
  return native.stripEchoedBoundaries(
    String(newStr ?? ''),
    asLines(fileLines),
    asLineNumber(startLine),
    asLineNumber(endLine),
    asPosition(position),
  );
}

function restoreIndentation(newStr, originalLines) {
  if (!newStr || !Array.isArray(originalLines) || originalLines.length === 0) {
    return { result: newStr || '', modifications: [] };
  }
  return native.restoreIndentation(String(newStr), asLines(originalLines));
}

function cleanNewString(newStr, fileLines, startLine, endLine, position) {
  if (typeof newStr !== 'string') return { cleaned: '', modifications: [] };
  return native.cleanNewString(newStr, asLines(fileLines), asLineNumber(startLine), asLineNumber(endLine), asPosition(position));
}

function detectBaseIndent(code) {
  return native.detectBaseIndent(code == null ? '' : String(code));
}

function reindent(newContent, targetIndent) {
  return native.reindent(newContent == null ? '' : String(newContent), targetIndent == null ? '' : String(targetIndent));
}

/** Probe's `findAllSymbols(filePath, symbolName, cwd)`: every matching definition, `[]` on failure. */
async function findAllSymbols(filePath, symbolName, cwd) {
  if (typeof filePath !== 'string' || typeof symbolName !== 'string' || symbolName.trim() === '') return [];
  try {
    return await native.findAllSymbols(filePath, symbolName, typeof cwd === 'string' ? cwd : undefined);
  } catch {
    return [];
  }
}

/** Probe's `findSymbol(filePath, symbolName, cwd)`: the first matching definition, or null. */
async function findSymbol(filePath, symbolName, cwd) {
  const all = await findAllSymbols(filePath, symbolName, cwd);
  if (all.length === 0) return null;
  const { startLine, endLine, code, nodeType, file } = all[0];
  return { startLine, endLine, code, nodeType, file };
}

module.exports = {
  findSymbol,
  findAllSymbols,
  computeContentHash,
  findFuzzyMatch,
  lineTrimmedMatch,
  whitespaceNormalizedMatch,
  indentFlexibleMatch,
  computeLineHash,
  parseLineRef,
  validateLineHash,
  annotateOutputWithHashes,
  stripHashlinePrefixes,
  stripEchoedBoundaries,
  restoreIndentation,
  cleanNewString,
  detectBaseIndent,
  reindent,
};
