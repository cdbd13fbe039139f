module.exports = {
  testMatch: ['<rootDir>/__test__/jest/**/*.test.cjs'],
  testEnvironment: 'node',
};
