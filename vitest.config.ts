import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // A hang still fails; a whole Action run on two busy cores does not (a full run under a load
    // of 20 took some over 60 s).
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: "forks",
    // One test file per core. Vitest's default in a run leaves one core to itself: a single
    // worker on CI's two cores, with which the suite ran 31 minutes.
    maxWorkers: "100%",
    // The reliability matrix (docs/reliability.md) and the quirk matrix (docs/quirks.md) are
    // written by the run that tests them.
    reporters: ["default", "./test/reliability/matrix-reporter.ts", "./test/quirks/quirk-reporter.ts"],
  },
});
