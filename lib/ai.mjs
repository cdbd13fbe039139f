// edit-engine/ai: ESM entry. Node finds the named exports in lib/ai.cjs (see lib/index.cjs).
export * from './ai.cjs';
export { default } from './ai.cjs';
