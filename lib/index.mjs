// edit-engine: ESM entry. Node finds the named exports in lib/index.cjs (see the note there).
export * from './index.cjs';
export { default } from './index.cjs';
