// edit-engine/langchain: ESM entry. Node finds the named exports in lib/langchain.cjs (see lib/index.cjs).
export * from './langchain.cjs';
export { default } from './langchain.cjs';
