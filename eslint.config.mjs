// ESLint (flat config): the recommended rules of ESLint and typescript-eslint, type-aware for
// the TypeScript sources (parserOptions.projectService) so a promise nobody awaits or handles
// is an error (no-floating-promises, no-misused-promises), and the house rule that only the
// store layer knows MongoDB (issue 11 §8). Formatting is Prettier's business
// (.prettierrc.json); the layers are dependency-cruiser's (.dependency-cruiser.cjs);
// `npm run lint` runs all three.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

const MONGODB_ONLY_IN_STORES =
  "Only the store layer knows MongoDB: src/store/, a contract's store (src/contracts/<name>/store.ts, store-*.ts or store/), scripts and tests.";

export default defineConfig([
  globalIgnores(["node_modules/", "dist/", "clients/*/dist/", "build/", "coverage/", "test-artifacts/", "data/", ".tools/"]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_name` says "unused on purpose" (a parameter a signature needs, a destructured field left out).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // `void p` is no answer either: each fire-and-forget says why (an eslint-disable comment with its reason).
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: false }],
      "@typescript-eslint/no-misused-promises": "error",
    },
  },

  {
    files: ["test/**"],
    languageOptions: { globals: { ...globals.jest } },
  },
  {
    // Tests and scripts read JSON answers and database documents whose shape they assert on.
    files: ["test/**", "scripts/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["web/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Type imports too: a MongoDB type in a signature is MongoDB knowledge outside the store.
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "mongodb", message: MONGODB_ONLY_IN_STORES }],
          patterns: [{ group: ["mongodb/*"], message: MONGODB_ONLY_IN_STORES }],
        },
      ],
    },
  },
  {
    files: ["src/store/**", "src/contracts/*/store.ts", "src/contracts/*/store-*.ts", "src/contracts/*/store/**", "scripts/**", "test/**"],
    rules: { "no-restricted-imports": "off" },
  },
]);
