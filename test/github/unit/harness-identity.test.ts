import { describe, expect, it } from "vitest";
import { harnessIdentity, harnessName } from "../../../src/github/harness-identity.js";

describe("harnessIdentity", () => {
  it("names a harness by its folder, without a trailing 'harness'", () => {
    expect(harnessName("harness")).toBe("");
    expect(harnessName("agent/harness")).toBe("agent");
    expect(harnessName("./agents/support/harness/")).toBe("agents/support");
    expect(harnessName("harness-b")).toBe("harness-b");
    expect(harnessName("my agent/harness")).toBe("my-agent");
    expect(harnessName("x-->y/harness")).toBe("x-y");
  });

  it("the default status context, the comment marker and the title carry the name; the one root harness keeps the plain forms", () => {
    const agent = harnessIdentity({
      harnessPath: "agent/harness",
      statusContext: "ecdysis/heldout",
    });
    expect(agent.statusContext).toBe("ecdysis/heldout (agent)");
    expect(agent.gateMarker).toBe("<!-- ecdysis-gate agent -->");
    expect(agent.title("Ecdysis: evolved harness (held-out 40% → 60%, +20 pts)")).toBe(
      "Ecdysis (agent): evolved harness (held-out 40% → 60%, +20 pts)",
    );
    expect(agent.title("Better rules")).toBe("[agent] Better rules");
    const root = harnessIdentity({ harnessPath: "harness", statusContext: "ecdysis/heldout" });
    expect(root).toMatchObject({
      statusContext: "ecdysis/heldout",
      gateMarker: "<!-- ecdysis-gate -->",
    });
    expect(root.title("Ecdysis: x")).toBe("Ecdysis: x");
  });

  it("a status context the config chose is used as written", () => {
    const custom = harnessIdentity({ harnessPath: "b/harness", statusContext: "ci/agent-b" });
    expect(custom.statusContext).toBe("ci/agent-b");
    expect(custom.gateMarker).toBe("<!-- ecdysis-gate b -->");
  });

  it("two harnesses never share a marker, even when one name starts with the other", () => {
    const a = harnessIdentity({ harnessPath: "a/harness", statusContext: "ecdysis/heldout" });
    const ab = harnessIdentity({ harnessPath: "ab/harness", statusContext: "ecdysis/heldout" });
    expect(ab.gateMarker.includes(a.gateMarker)).toBe(false);
    expect(a.gateMarker.includes("<!-- ecdysis-gate -->")).toBe(false);
  });
});
