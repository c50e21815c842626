// The Action's entry (bundled to dist/index.js): the real engine behind `run()`.
import { run } from "./main.js";
import { realCore } from "./real-core.js";

await run({ engine: realCore() });
