// Test-only entry: the TypeScript Action with the fake engine, selected by ECDYSIS_FAKE_CORE.
// Production code has no such seam: src/github/index.ts always wires the real engine.
import { run } from "../../src/github/main.js";
import { fakeCore, scenarioFromEnv } from "./fake-core.js";

await run({ engine: fakeCore(scenarioFromEnv()) });
