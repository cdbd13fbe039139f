// Builds empty consumer projects that install packages without asking a registry for any name:
// registry packages come from this repository's lockfile (their version and integrity, so npm finds
// the tarballs `npm ci` put in its cache), and edit-engine itself from `npm pack` tarballs.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The registry npm is configured to use, with a trailing slash. */
function configuredRegistry() {
  const url = process.env.npm_config_registry || execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim();
  return url.endsWith('/') ? url : `${url}/`;
}

/** The tarball address of `name@version` on `registry` (the registry's standard layout). */
function tarballUrl(registry, name, version) {
  const base = name.slice(name.lastIndexOf('/') + 1);
  return `${registry}${name}/-/${base}-${version}.tgz`;
}

/** The lockfile key a package named `name` resolves to from the package at `from` (node's lookup). */
function resolveKey(packages, from, name) {
  let base = from;
  for (;;) {
    const key = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[key]) return key;
    if (!base) return null;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

/** Every lockfile key the packages at `roots` need: dependencies, installed optional ones, required peers. */
function closure(packages, roots) {
  const seen = new Set();
  const todo = [...roots];
  while (todo.length) {
    const key = todo.pop();
    if (seen.has(key)) continue;
    seen.add(key);
    const entry = packages[key];
    const optionalPeers = entry.peerDependenciesMeta || {};
    const names = [
      ...Object.keys(entry.dependencies || {}),
      ...Object.keys(entry.optionalDependencies || {}),
      ...Object.keys(entry.peerDependencies || {}).filter((n) => !(optionalPeers[n] && optionalPeers[n].optional)),
    ];
    for (const name of names) {
      const found = resolveKey(packages, key, name);
      if (found && !packages[found].os && !packages[found].cpu) todo.push(found);
      else if (found && !packages[found].optional) todo.push(found);
    }
  }
  return seen;
}

/**
 * A package-lock (v3) for a project depending on `deps` (`{ name: repoLockKey }`; a key such as
 * `node_modules/ai-v7` installs that aliased copy under `name`), with everything they need copied
 * from `repoLock`.
 */
export function consumerLockfile(repoLock, deps) {
  const packages = repoLock.packages;
  const renames = Object.entries(deps).map(([name, key]) => [key, `node_modules/${name}`]);
  const rename = (key) => {
    for (const [from, to] of renames) if (key === from || key.startsWith(`${from}/`)) return to + key.slice(from.length);
    return key;
  };
  const registry = configuredRegistry();
  const out = {};
  const root = { name: 'consumer', version: '1.0.0', dependencies: {} };
  for (const [name, key] of Object.entries(deps)) root.dependencies[name] = packages[key].version;
  out[''] = root;
  for (const key of closure(packages, Object.values(deps))) {
    const { dev, devOptional, name, ...entry } = packages[key];
    const installedName = rename(key).slice(rename(key).lastIndexOf('node_modules/') + 'node_modules/'.length);
    const realName = name || installedName;
    out[rename(key)] = entry.resolved ? entry : { resolved: tarballUrl(registry, realName, entry.version), ...entry };
  }
  return { name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages: out };
}

/** Creates `dir` as a project whose package.json and lockfile hold `deps` (see `consumerLockfile`). */
export function writeConsumer(dir, repoLock, deps) {
  mkdirSync(dir, { recursive: true });
  const lock = consumerLockfile(repoLock, deps);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, dependencies: lock.packages[''].dependencies }, null, 2));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
}

/** The repository's parsed package-lock.json. */
export function readRepoLock(repo) {
  return JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8'));
}
