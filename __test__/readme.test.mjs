// The user docs stay true to what is tested and shipped: the README's framework examples are the
// code tsc compiles in __test__/types/frameworks/ (between its `README example` markers), and
// every relative link in the README and docs/ names a file that exists and is published.
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const read = (p) => readFileSync(join(repo, p), 'utf8');
const readme = read('README.md');
const FRAMEWORKS = join(repo, '__test__', 'types', 'frameworks');

/** The lines between `// README example: begin` and `// README example: end` of a file. */
function exampleOf(file) {
  const text = readFileSync(join(FRAMEWORKS, file), 'utf8');
  const m = /\/\/ README example: begin\n([\s\S]*?)\/\/ README example: end\n/.exec(text);
  return m ? m[1] : null;
}

/** Relative link targets of a Markdown file (no URLs, no in-page anchors), resolved from the repo root. */
function relativeLinks(file) {
  const targets = [...read(file).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1].split('#')[0]);
  return targets.filter((t) => t && !/^[a-z]+:/i.test(t)).map((t) => normalize(join(dirname(file), t)));
}

describe('README framework examples', () => {
  const files = readdirSync(FRAMEWORKS).filter((f) => f.endsWith('.ts'));

  it('covers every compiled framework file', () => {
    expect(files.sort()).toEqual(['ai.ts', 'anthropic.ts', 'langchain.ts', 'mastra.ts', 'openai-editor.ts', 'openai.ts']);
  });

  it.each(files)('%s: the marked example is in README.md verbatim, as a ts block', (file) => {
    const example = exampleOf(file);
    expect(example, `${file} has no README example markers`).not.toBeNull();
    expect(readme).toContain('```ts\n' + example + '```\n');
  });
});

describe('documentation links', () => {
  const pkg = JSON.parse(read('package.json'));
  const shipped = (p) => pkg.files.some((f) => (f.endsWith('/') ? p.startsWith(f) : p === f)) || ['README.md', 'LICENSE', 'package.json'].includes(p);
  const userDocs = ['README.md', ...readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  // Contributor material is linked from the README for readers of the repository, not shipped.
  const REPOSITORY_ONLY = ['CONTRIBUTING.md'];

  it.each([...userDocs, 'CONTRIBUTING.md', 'bench/README.md'])('%s links only to files that exist', (file) => {
    const missing = relativeLinks(file).filter((t) => !existsSync(join(repo, t)));
    expect(missing).toEqual([]);
  });

  it.each(userDocs)('%s links only to files the package publishes', (file) => {
    const unshipped = relativeLinks(file).filter((t) => !shipped(relative('.', t)) && !REPOSITORY_ONLY.includes(t));
    expect(unshipped).toEqual([]);
  });
});
