// edit-engine/openai: ESM entry. Node finds the named exports in lib/openai.cjs (see lib/index.cjs).
export * from './openai.cjs';
export { default } from './openai.cjs';
