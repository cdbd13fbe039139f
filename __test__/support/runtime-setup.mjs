// Vitest setup file: records the runtime this test file runs in (see runtime.cjs).
import { createRequire } from 'node:module';
import { expect } from 'vitest';

createRequire(import.meta.url)('./runtime.cjs').recordRuntime(expect.getState().testPath);
