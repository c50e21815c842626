import os from "node:os";
import type { Machine } from "./types.js";

/** The machine the bench runs on (cpu model, logical cores, node version), for the report. */
export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    memoryGb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
  };
}
