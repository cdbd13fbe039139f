// Jest setup file (after the framework): records the runtime this test file runs in (see runtime.cjs).
require('./runtime.cjs').recordRuntime(expect.getState().testPath);
