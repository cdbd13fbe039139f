'use strict';
// Seed 002 interfaces: FileReadTracker, ExternalModificationDetector, BackgroundTaskPersistence
// (native classes, re-exported), QuoteNormalizer and grep / grepTool (one native call per search).

const native = require('./native.cjs');
const { createToolbox, nativeTool, namesOf } = require('./tools.cjs');

const grepDescription = `Search file contents with a regular expression (ripgrep engine and syntax).

Output is ripgrep's: "path:line:text" for matching lines, "path-line-text" for context lines, "--" between separate groups. Hidden files, files ignored by .gitignore and binary files are skipped. With lineHashes: true each line number becomes a "line:hash" reference (e.g. "42:ab") that the edit tool's start_line accepts.

Parameters:
- pattern: (required) regular expression, e.g. "fn \\w+" or "handleError\\(" (escape special characters for a literal match)
- path: file or directory to search (default: the working directory)
- beforeContext / afterContext / context: lines to show before / after / around each match
- fileType: only files of this type (js, ts, py, rust, go, java, md, ... or a bare extension)
- ignoreCase: case-insensitive search
- maxResults: stop after this many matching lines
- lineHashes: print "line:hash" references for line-targeted edits`;

const count = { type: 'integer', minimum: 0 };
const grepSchema = {
  type: 'object',
  properties: {
    pattern: { type: 'string', description: 'Regular expression to search for (ripgrep syntax)' },
    path: { type: 'string', description: 'File or directory to search (default: the working directory)' },
    beforeContext: { ...count, description: 'Lines of context before each match (-B)' },
    afterContext: { ...count, description: 'Lines of context after each match (-A)' },
    context: { ...count, description: 'Lines of context before and after each match (-C)' },
    fileType: { type: 'string', description: 'Only search files of this type: js, ts, py, rust, go, ... or a file extension' },
    ignoreCase: { type: 'boolean', description: 'Case-insensitive search' },
    maxResults: { type: 'integer', minimum: 1, description: 'Stop after this many matching lines' },
    lineHashes: { type: 'boolean', description: 'Print "line:hash" references usable as start_line in the edit tool' },
  },
  required: ['pattern'],
  additionalProperties: false,
};

/**
 * Seed 002's `grepTool(options)`: `{ name: 'grep', description, inputSchema, execute }`. Options are
 * the edit tools' (`allowedFolders`, `cwd`, `workspaceRoot`, `fileTracker`, `readTracker`, ...):
 * the search is confined to the allowed folders and every returned file counts as read.
 */
function grepTool(options = {}) {
  return nativeTool(createToolbox(options), 'grep', {
    name: 'grep',
    description: grepDescription,
    inputSchema: grepSchema,
    label: 'Error',
    toolNames: namesOf(options),
  });
}

/** Seed 002's `grep(args, options?)`: resolves to the tool's output string (never rejects). */
function grep(args, options = {}) {
  return grepTool(options).execute(args);
}

/**
 * Seed 002's `QuoteNormalizer`: typographic quotes (U+2018/2019/201A -> ', U+201C/201D/201E -> ")
 * compare equal to straight ones. Never throws: `normalize` returns a non-string unchanged and
 * `fuzzyMatch` answers `null` for non-string arguments.
 */
class QuoteNormalizer {
  /** `text` with every typographic quote replaced by its straight form. */
  normalize(text) {
    return typeof text === 'string' ? native.normalizeQuotes(text) : text;
  }

  /**
   * The first occurrence of `needle` in `haystack`, quotes normalized on both sides:
   * `{ matched: true, originalMatch, normalizedMatch, position }` (`originalMatch` is the haystack's
   * own text, `position` its string index), or `null`.
   */
  fuzzyMatch(needle, haystack) {
    if (typeof needle !== 'string' || typeof haystack !== 'string') return null;
    return native.quoteFuzzyMatch(needle, haystack);
  }
}

module.exports = {
  QuoteNormalizer,
  grep,
  grepTool,
  grepSchema,
  grepDescription,
  FileReadTracker: native.FileReadTracker,
  ExternalModificationDetector: native.ExternalModificationDetector,
  BackgroundTaskPersistence: native.BackgroundTaskPersistence,
};
