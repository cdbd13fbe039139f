'use strict';
// What a caller hands in (tool options, call params) read once as plain data: own enumerable
// string-keyed properties only, so a polluted `Object.prototype` adds nothing, and a Proxy or a
// throwing getter yields a reason instead of an exception. Nothing here throws.

/** Marks an options copy whose source could not be read; holds the reason. */
const UNREADABLE = Symbol('edit-engine unreadable options');

/** Deepest nesting of params copied (a cycle ends there with a reason). */
const MAX_DEPTH = 64;

/** The copies `ownOptions` made (passed again, they are returned as they are). */
const ownCopies = new WeakSet();

const isObject = (v) => v !== null && (typeof v === 'object' || typeof v === 'function');

/** What a thrown value says, without throwing again. */
function reasonOf(error) {
  try {
    return error && typeof error.message === 'string' ? error.message : String(error);
  } catch {
    return 'a value that cannot be read';
  }
}

/** A null-prototype copy of `value`'s own enumerable string-keyed properties (values as they are). Throws what reading throws. */
function shallowCopy(value) {
  const out = Object.create(null);
  for (const key of Object.keys(value)) out[key] = value[key];
  return out;
}

/**
 * The tool options `options` as a null-prototype copy of its own properties (`{}` for a
 * non-object). When reading them throws, the copy is empty and `optionsProblem(copy)` says why.
 * A copy passed again is returned as it is.
 */
function ownOptions(options) {
  if (!isObject(options)) return Object.create(null);
  if (ownCopies.has(options)) return options;
  let copy;
  try {
    copy = shallowCopy(options);
    if (Object.prototype.hasOwnProperty.call(options, UNREADABLE)) copy[UNREADABLE] = options[UNREADABLE];
  } catch (error) {
    copy = Object.create(null);
    copy[UNREADABLE] = `the tool options could not be read (${reasonOf(error)}); pass a plain object of options`;
  }
  ownCopies.add(copy);
  return copy;
}

/** Why the options behind `copy` (from `ownOptions`) could not be read, or undefined. */
const optionsProblem = (copy) => copy[UNREADABLE];

/** A lone (unpaired) UTF-16 surrogate in `text`: `{ index, code }`, or null. */
function loneSurrogate(text) {
  if (text.isWellFormed()) return null;
  const match = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(text);
  return { index: match.index, code: match[0].charCodeAt(0).toString(16).toUpperCase() };
}

/** The name of `key` under the param path `where` (such as `edits[0].new_string`), for messages. */
const child = (where, key) => (typeof key === 'number' ? `${where}[${key}]` : where === '' ? key : `${where}.${key}`);

/**
 * The deep copy of one param value (see `ownParams`); objects other than plain ones are kept as
 * they are unless `top`. Throws a reason for the caller to report.
 */
function copyValue(value, where, depth, top = false) {
  if (typeof value === 'string') {
    const lone = loneSurrogate(value);
    if (lone) {
      throw new Error(`${where || 'the input'} holds a lone surrogate (U+${lone.code}) at character ${lone.index}, which is not Unicode text and cannot be written to a UTF-8 file; resend it with that character removed or paired`);
    }
    return value;
  }
  if (!isObject(value) || typeof value === 'function') return value;
  if (depth >= MAX_DEPTH) throw new Error(`the params nest deeper than ${MAX_DEPTH} levels (is there a cycle?)`);
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyValue(value[i], child(where, i), depth + 1);
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (!top && proto !== Object.prototype && proto !== null) return value;
  const out = Object.create(null);
  for (const key of Object.keys(value)) out[key] = copyValue(value[key], child(where, key), depth + 1);
  return out;
}

/**
 * Call params as plain data: `{ params }`, a deep null-prototype copy of own enumerable
 * properties (plain objects and arrays; other values as they are; `{}` for a non-object), or
 * `{ problem }` when reading them throws or a string holds a lone surrogate.
 */
function ownParams(params) {
  if (typeof params !== 'object' || params === null) return { params: Object.create(null) };
  try {
    return { params: copyValue(params, '', 0, true) };
  } catch (error) {
    return { problem: reasonOf(error) };
  }
}

module.exports = { ownOptions, optionsProblem, ownParams };
