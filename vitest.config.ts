import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The README's reliability matrix is written by the run that tests it.
    reporters: ["default", "./test/reliability/matrix-reporter.ts"],
  },
});
