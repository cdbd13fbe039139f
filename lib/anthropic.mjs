// edit-engine/anthropic: ESM entry. Node finds the named exports in lib/anthropic.cjs (see lib/index.cjs).
export * from './anthropic.cjs';
export { default } from './anthropic.cjs';
