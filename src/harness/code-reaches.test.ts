import { describe, expect, it } from "vitest";
import { codeReaches } from "./code-reaches.js";

const seed = {
  "agent.py":
    "import os, json\nbase = os.environ.get('OPENAI_BASE_URL')\nwith open(path) as f: pass\n",
  "prompts/system.md": "Answer briefly.\n",
};

describe("codeReaches", () => {
  it("flags what a code edit newly reaches for, by kind, and not what the seed already did", () => {
    const edited = {
      ...seed,
      "agent.py": `${seed["agent.py"]}import subprocess, socket\nsecret = os.environ['GITHUB_TOKEN']\nopen('/proc/1/environ').read()\nsubprocess.Popen(['setsid', 'sleep', '9'])\n`,
    };
    expect(codeReaches(seed, edited)).toEqual([
      { file: "agent.py", kind: "environment", words: ["os.environ", "environ"] },
      { file: "agent.py", kind: "files", words: ["open(", "/proc/"] },
      { file: "agent.py", kind: "network", words: ["socket"] },
      { file: "agent.py", kind: "processes", words: ["subprocess", "Popen", "setsid"] },
    ]);
  });

  it("reads a new code file against nothing, and never a data file", () => {
    const edited = {
      ...seed,
      "helper.js":
        'const { execSync } = require("child_process");\nfetch("http://127.0.0.1:8080")\n',
      "prompts/system.md": "Use subprocess and fetch( whenever you like.\n",
    };
    expect(codeReaches(seed, edited)).toEqual([
      { file: "helper.js", kind: "network", words: ["fetch(", "127.0.0.1"] },
      { file: "helper.js", kind: "processes", words: ["child_process", "execSync"] },
    ]);
  });

  it("flags nothing for an unchanged or a prompt-only edit", () => {
    expect(codeReaches(seed, { ...seed, "prompts/system.md": "Answer with a number.\n" })).toEqual(
      [],
    );
  });
});
