// ESLint (flat config) for the widgets' JavaScript and the JS test drivers: `make lint`.
// The widgets are ES modules run in the browser (and in node by the parity tests).
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    ignores: ["node_modules/**", "_build/**", "book/_static/vendor/**", "tests/output/**"],
  },
  js.configs.recommended,
  {
    files: ["menace_lib/widgets/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
  },
  {
    files: ["tests/js/**/*.mjs", "eslint.config.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node },
    },
  },
  {
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
];
