import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One test file per core. Vitest's default in a run leaves one core to itself: a single
    // worker on CI's two cores, with which the suite ran 31 minutes.
    maxWorkers: "100%",
    // The reliability matrix (docs/reliability.md) and the quirk matrix (docs/quirks.md) are
    // written by the run that tests them.
    reporters: ["default", "./test/reliability/matrix-reporter.ts", "./test/quirks/quirk-reporter.ts"],
  },
});
