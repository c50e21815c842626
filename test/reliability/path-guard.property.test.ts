import { lstatSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { checkEditPath } from "../../src/harness/path-guard.js";
import { fullFuzzCases, runProperty } from "./fuzz-cases.js";

// Property: whatever path an LLM names, a path the guard accepts stays inside the harness
// folder (symlinks resolved), never touches .git/.github or a protected file, and — when new —
// is portable. Adversarial pieces: `..` in many spellings, absolute and drive paths,
// backslashes, NUL, symlinks in and out, zero-width/bidi/fullwidth characters, reserved
// names, long names.

let dir: string;
let realDir: string;
let outside: string;
const existing = ["harness.yaml", "rules.md", "system.md", "docs/guide.md", "tasks/train.jsonl"];
let protectedPaths: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ecdysis-path-fuzz-"));
  outside = await mkdtemp(join(tmpdir(), "ecdysis-path-fuzz-outside-"));
  for (const file of existing) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), "x\n");
  }
  writeFileSync(join(outside, "target.md"), "outside\n");
  symlinkSync(outside, join(dir, "escape"));
  symlinkSync(join(dir, "docs"), join(dir, "inner"));
  symlinkSync(join(outside, "target.md"), join(dir, "linked.md"));
  symlinkSync(join(dir, "missing-target"), join(dir, "dangling"));
  symlinkSync("..", join(dir, "docs", "up"));
  realDir = realpathSync(dir);
  protectedPaths = [join(dir, "tasks", "train.jsonl"), join(dir, "ecdysis.yml")];
});

const invisible = ["\u200B", "\u200D", "\u202E", "\u2066", "\uFEFF", "\u{E0041}", "\u00AD"];

const benign = fc.constantFrom(
  "a.md",
  "notes.md",
  "docs",
  "guide.md",
  "rules.md",
  "sub",
  "v2.md",
  "inner",
);

const segment: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: benign, weight: 6 },
  fc.constantFrom(
    "..",
    ".",
    "",
    "...",
    ".git",
    ".GIT",
    ".Git",
    ".github",
    ".GitHub",
    "escape",
    "inner",
    "dangling",
    "linked.md",
    "up",
    "docs",
    "tasks",
    "train.jsonl",
    "ecdysis.yml",
    "ECDYSIS.yml",
    "con",
    "CON.md",
    "lpt1.md",
    "aux",
    "nul.txt",
    "a.md",
    "rules.md",
    "RULES.md",
    "guide.md",
    "ａ.md",
    "．．",
    "..\u200B",
    "x\u200By.md",
    "e\u0301.md",
    "notes .md",
    "notes.md.",
    "a:b.md",
    "what?.md",
    "tab\t.md",
    "bell\u0007.md",
    "NUL\0.md",
    "~",
    "$HOME",
    "%2e%2e",
  ),
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom("a", "b", ".", "-", "_", "é", "漢"),
    minLength: 1,
    maxLength: 20,
  }),
  fc.integer({ min: 200, max: 320 }).map((length) => `${"n".repeat(length)}.md`),
  fc
    .tuple(fc.constantFrom(...invisible), fc.constantFrom("..", ".git", "a.md", "escape"))
    .map(([char, base]) => `${base.slice(0, 1)}${char}${base.slice(1)}`),
);

/** Paths an LLM might name (built once the fixture folder exists: some are absolute into it). */
const editPath = (): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.constantFrom("", "", "", "/", "./", "C:", "c:/", "\\\\server\\", dir, `${dir}/`, "~/"),
      fc.array(segment, { minLength: 1, maxLength: 6 }),
      fc.constantFrom("/", "/", "/", "\\", "//"),
      fc.constantFrom("", "", ".md", "/", "/.."),
    )
    .map(
      ([prefix, segments, separator, suffix]) => `${prefix}${segments.join(separator)}${suffix}`,
    );

/** Realpath of the longest existing prefix of `target`, the rest appended (an independent oracle). */
function resolvedTarget(target: string): string {
  let probe = target;
  const rest: string[] = [];
  for (;;) {
    try {
      lstatSync(probe);
      return join(realpathSync(probe), ...rest.reverse());
    } catch {
      const parent = resolve(probe, "..");
      if (parent === probe) return target;
      rest.push(relative(parent, probe));
      probe = parent;
    }
  }
}

function inside(root: string, candidate: string): boolean {
  const difference = relative(root, candidate);
  return (
    difference === "" ||
    (!difference.startsWith(`..${sep}`) && difference !== ".." && !isAbsolute(difference))
  );
}

describe("path guard (property)", () => {
  it(`accepts only contained, unprotected, portable paths (≥ ${fullFuzzCases} cases)`, () => {
    let accepted = 0;
    let refused = 0;
    const cases = runProperty({
      name: "path guard",
      runs: 12_000, // cheap (about 2 s): the full fuzz in every run
      arbitrary: editPath(),
      predicate: (path) => {
        const verdict = checkEditPath({
          dir,
          path,
          editable: ["**/*", "*", "harness.yaml"],
          protectedPaths,
          existing,
        });
        if (!verdict.ok) {
          refused += 1;
          expect(verdict.reason.length).toBeGreaterThan(0);
          return;
        }
        accepted += 1;
        const accepted_ = verdict.path;
        const segments = accepted_.split("/");
        expect(isAbsolute(accepted_)).toBe(false);
        expect(accepted_).not.toMatch(/[\\\0]/);
        for (const part of segments) {
          expect(["", ".", ".."]).not.toContain(part);
          expect([".git", ".github"]).not.toContain(part.toLowerCase());
        }
        const real = resolvedTarget(join(dir, accepted_));
        expect(inside(realDir, real)).toBe(true);
        for (const file of protectedPaths) {
          const guarded = resolvedTarget(file);
          expect(inside(guarded.toLowerCase(), real.toLowerCase())).toBe(false);
        }
        if (!existing.includes(accepted_)) {
          expect(Buffer.byteLength(accepted_)).toBeLessThanOrEqual(512);
          for (const part of segments) {
            expect(Buffer.byteLength(part)).toBeLessThanOrEqual(255);
            expect(part).toMatch(/^[A-Za-z0-9._-]+$/);
            expect(part).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i);
          }
          const twin = existing.find((file) => file.toLowerCase() === accepted_.toLowerCase());
          expect(twin).toBeUndefined();
        }
      },
    });
    expect(cases).toBeGreaterThanOrEqual(fullFuzzCases);
    // The generator must exercise both sides of the guard.
    expect(accepted).toBeGreaterThan(500);
    expect(refused).toBeGreaterThan(500);
  }, 120_000);
});
