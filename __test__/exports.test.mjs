// Each piece of the public surface is written once; these checks fail when a derived copy drifts:
// the ESM entries' names (Node's CommonJS export detection of each lib/*.cjs entry), the adapters'
// re-export types, the text editor's version table in the types, and the README's list of symbol
// languages (all against the runtime or the engine).
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const lib = (file) => fileURLToPath(new URL(`../lib/${file}`, import.meta.url));
const ENTRIES = ['index', 'ai', 'anthropic', 'mcp', 'openai', 'langchain', 'mastra'];

/** The named exports the runtime itself (not the test runner's loader) gives `import * as m from file`. */
function esmNames(file) {
  const script = fileURLToPath(new URL('./support/esm-names.mjs', import.meta.url));
  const run = spawnSync(process.execPath, [script, file], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  // `module.exports` is the CommonJS module itself, which Node >= 23 and Deno also export by that name.
  return JSON.parse(run.stdout).filter((name) => name !== 'default' && name !== 'module.exports').sort();
}

describe('ESM entries re-export every CommonJS export by name', () => {
  it.each(ENTRIES)('lib/%s.mjs', (entry) => {
    const cjs = require(lib(`${entry}.cjs`));
    expect(esmNames(lib(`${entry}.mjs`))).toEqual(Object.keys(cjs).sort());
  });

  it('the main entry keeps its public names and leaves the internals out', () => {
    const names = Object.keys(require(lib('index.cjs')));
    for (const name of ['editTool', 'viewTool', 'textEditorTool', 'replaceInFileDescription', 'undoLastEditResult', 'QuoteNormalizer', 'BackgroundTaskPersistence', 'applyDiffDescription', 'reindent']) {
      expect(names).toContain(name);
    }
    for (const name of ['createToolbox', 'nativeTool', 'VERSIONS', 'editorVersion', 'viewSchema', 'textEditorUndoDescription']) {
      expect(names).not.toContain(name);
    }
  });
});

describe('types follow the runtime', () => {
  it('lib/adapter-exports.d.ts declares exactly what lib/adapter-exports.cjs exports', () => {
    const dts = readFileSync(lib('adapter-exports.d.ts'), 'utf8');
    const declared = [...dts.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) => m[1].split(',').map((s) => s.trim()).filter(Boolean));
    expect(declared.sort()).toEqual(Object.keys(require(lib('adapter-exports.cjs'))).sort());
  });
});

describe('the text editor\'s version table', () => {
  it('lib/index.d.ts\'s TextEditorVersions type is the engine\'s textEditorVersions()', () => {
    const dts = readFileSync(lib('index.d.ts'), 'utf8');
    const block = /export type TextEditorVersions = \{([\s\S]*?)\n\};/.exec(dts)[1];
    const row = /'(\d+)': \{ name: '([^']+)'; type: '([^']+)'; hasUndo: (true|false); maxCharacters: (true|false) \}/g;
    const typed = [...block.matchAll(row)].map(([, version, name, type, hasUndo, maxCharacters]) => ({
      version, name, type, hasUndo: hasUndo === 'true', maxCharacters: maxCharacters === 'true',
    }));
    expect(typed).toEqual(require(lib('native.cjs')).textEditorVersions());
  });
});

describe('the README lists the engine\'s symbol languages', () => {
  it('the block between <!-- languages --> and <!-- /languages --> is symbolLanguages(), comma-separated', () => {
    const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
    const block = /<!-- languages -->([\s\S]*?)<!-- \/languages -->/.exec(readme);
    expect(block, 'README.md needs a <!-- languages --> ... <!-- /languages --> block').not.toBeNull();
    const languages = require(lib('native.cjs')).symbolLanguages();
    expect(languages).toContain('C++');
    expect(block[1].trim()).toBe(languages.join(', '));
  });
});
