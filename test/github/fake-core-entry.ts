// Test-only entry: the TypeScript Action with the fake engine, selected by ECDYSIS_FAKE_CORE.
// Production code has no such seam: src/github/index.ts always wires the real engine.
import { run } from "../../src/github/main.js";
import { fakeArtifactService } from "./fake-artifact-service.js";
import { fakeCore, scenarioFromEnv } from "./fake-core.js";

await run({
  engine: fakeCore(scenarioFromEnv()),
  uploader: process.env.ECDYSIS_FAKE_ARTIFACTS
    ? fakeArtifactService(process.env.ECDYSIS_FAKE_ARTIFACTS)
    : undefined,
});
