/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    // Transpile only (types are checked by `npm run typecheck`); keeps decorator metadata.
    "^.+\\.[tj]s$": ["ts-jest", { tsconfig: "<rootDir>/test/tsconfig.json" }],
  },
  // jose ships only ES modules: let ts-jest turn it into CommonJS for jest's module system.
  transformIgnorePatterns: ["/node_modules/(?!(jose|@secretlint|structured-source|boundary)/)"],
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  globalTeardown: "<rootDir>/test/support/global-teardown.ts",
  testTimeout: 60_000,
  maxWorkers: 2,
};
