/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    // Transpile only (types are checked by `npm run typecheck`); keeps decorator metadata.
    "^.+\\.[tj]s$": ["ts-jest", { tsconfig: "<rootDir>/test/tsconfig.json" }],
  },
  // jose and eld ship only ES modules: let ts-jest turn them into CommonJS for jest's module system.
  transformIgnorePatterns: ["/node_modules/(?!(jose|@secretlint|structured-source|boundary|eld)/)"],
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
  testTimeout: 60_000,
  maxWorkers: 2,
  // A worker that has loaded the NLP model, WordNet and several gateways is recycled between files
  // instead of growing until V8 runs out of heap.
  workerIdleMemoryLimit: "1GB",
};
