// The Action's entry (bundled to dist/index.js): run() with the real engine and services.
import { run } from "./main.js";

await run();
