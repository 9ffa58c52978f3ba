/**
 * `npm run test:topology`: the production topology test (test/topology/*.topology.ts), apart
 * from `npm test` because it builds and starts the real Temporal server and PostgreSQL
 * (docs/operations.md, "Production topology").
 * @type {import('jest').Config}
 */
module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  roots: ['<rootDir>/test/topology'],
  testMatch: ['**/*.topology.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // A safety net only: every wait inside polls a readiness signal. The first run may build the
  // server binaries (go install, minutes).
  testTimeout: 1_200_000,
};
