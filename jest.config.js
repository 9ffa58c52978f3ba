/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/workflows', '<rootDir>/activities', '<rootDir>/test', '<rootDir>/scripts'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 60000,
  // One in-memory Temporal dev server for the run, only when a selected test file needs it
  // (the sequencer records which do; see docs/operations.md).
  testSequencer: '<rootDir>/test/support/temporal-sequencer.js',
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};
