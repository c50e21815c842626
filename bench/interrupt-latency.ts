// How long Ctrl-C (SIGINT) takes to end `ecdysis` in each phase of a run (issue #28: ≤ 1 s).
// Each figure is one `node dist/cli.js` process on a project of the quickstart world, signalled
// when its stderr shows it is inside the phase: the preparation of an 8,000-train-task evolve
// (the split check and label-word scan, 2.5 s after start), an eval (its first rollouts started), the
// search (iteration 1's batch), a measure shard and the finish (of a split run at 200 + 200 tasks
// per family). Prints, per phase, the time from the signal to the process's exit and its code.
// Usage: npm run build && npm exec tsx bench/interrupt-latency.ts   Asserts nothing: the figures
// depend on the machine and its load.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const cli = join(root, "dist", "cli.js");

/** A project of the quickstart world at `train`/`heldout` tasks per family. */
function project(train: number, heldout: number): string {
  const dir = mkdtempSync(join(tmpdir(), "ecdysis-interrupt-"));
  const world = readFileSync(join(root, "worlds", "quickstart.yaml"), "utf8").replaceAll(
    "counts: { train: 8, heldout: 8 }",
    `counts: { train: ${train}, heldout: ${heldout} }`,
  );
  writeFileSync(join(dir, "world.yaml"), world);
  mkdirSync(join(dir, "project"));
  execFileSync(process.execPath, [cli, "init", ".", "--world", "../world.yaml"], {
    cwd: join(dir, "project"),
  });
  return join(dir, "project");
}

/** Runs `args` in `cwd`; SIGINT when stderr matches `when` (or after `afterMs`); the exit time. */
function interrupt(cwd: string, args: string[], when: RegExp | number) {
  return new Promise<{ ms: number; code: number | null; signalled: boolean }>((done) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let sentAt = 0;
    const send = () => {
      if (sentAt) return;
      sentAt = performance.now();
      child.kill("SIGINT");
    };
    let stderr = "";
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
      if (when instanceof RegExp && when.test(stderr)) send();
    });
    if (typeof when === "number") setTimeout(send, when);
    child.on("close", (code) =>
      done({ ms: sentAt ? performance.now() - sentAt : 0, code, signalled: sentAt > 0 }),
    );
  });
}

const run = (cwd: string, args: string[]) =>
  execFileSync(process.execPath, [cli, ...args], { cwd, stdio: "ignore" });
const evolve = ["evolve", "--config", "ecdysis.yml", "--out", "out"];
const print = (phase: string, figure: { ms: number; code: number | null; signalled: boolean }) =>
  console.log(
    figure.signalled
      ? `${phase.padEnd(34)} Ctrl-C ended it in ${(figure.ms / 1000).toFixed(2)} s (exit ${figure.code})`
      : `${phase.padEnd(34)} ended (exit ${figure.code}) before the signal: no figure`,
  );

console.log(
  `${cpus().length} cores, load ${loadavg()
    .map((v) => v.toFixed(1))
    .join(" ")}`,
);
print("preparation, 8,000 train tasks", await interrupt(project(1600, 40), evolve, 2500));
const split = project(200, 200);
print(
  "eval --split all, 2,000 tasks",
  await interrupt(
    split,
    ["eval", "--config", "ecdysis.yml", "--split", "all", "--out", "eval-out"],
    /rollouts…/,
  ),
);
print(
  "evolve --phase search",
  await interrupt(split, [...evolve, "--phase", "search"], /iteration 1: batch/),
);
run(split, [...evolve, "--phase", "search"]);
const finish = `${split}-finish`;
cpSync(split, finish, { recursive: true });
print(
  "evolve --phase measure --shard 1/2",
  await interrupt(split, [...evolve, "--phase", "measure", "--shard", "1/2"], /rollouts \(/),
);
print(
  "evolve --phase finish",
  await interrupt(finish, [...evolve, "--phase", "finish"], /rollouts \(/),
);
