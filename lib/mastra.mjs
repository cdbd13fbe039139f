// edit-engine/mastra: ESM entry. Node finds the named exports in lib/mastra.cjs (see lib/index.cjs).
export * from './mastra.cjs';
export { default } from './mastra.cjs';
