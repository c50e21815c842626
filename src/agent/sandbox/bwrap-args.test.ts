import { describe, expect, it } from "vitest";
import { bwrapArgs, insideSocket } from "./bwrap-args.js";

const layout = {
  system: [{ path: "/usr" }, { path: "/bin", linkTo: "usr/bin" }, { path: "/etc" }],
  masked: [
    { path: "/etc/shadow", folder: false },
    { path: "/etc/ssh", folder: true },
  ],
  readOnly: ["/work/cache/abc", "/opt/python"],
};

/** The value after each occurrence of `flag`, as [flag, …values] tuples. */
const uses = (args: string[], flag: string, arity: number) =>
  args.flatMap((arg, index) => (arg === flag ? [args.slice(index + 1, index + 1 + arity)] : []));

describe("bwrapArgs", () => {
  const args = bwrapArgs({ layout, cwd: "/work/cache/abc", argv: ["python3", "agent.py"] });

  it("unshares every namespace, drops every capability and refuses nested user namespaces", () => {
    for (const flag of [
      "--unshare-user",
      "--unshare-pid",
      "--unshare-net",
      "--unshare-ipc",
      "--disable-userns",
      "--die-with-parent",
      "--new-session",
    ])
      expect(args).toContain(flag);
    expect(uses(args, "--cap-drop", 1)).toEqual([["ALL"]]);
    expect(args).not.toContain("--share-net");
  });

  it("mounts the system read-only, masks its secrets, and mounts nothing else but what it is given", () => {
    expect(uses(args, "--ro-bind", 2)).toEqual([
      ["/usr", "/usr"],
      ["/etc", "/etc"],
      ["/dev/null", "/etc/shadow"],
    ]);
    expect(uses(args, "--symlink", 2)).toEqual([["usr/bin", "/bin"]]);
    expect(uses(args, "--ro-bind-try", 2)).toEqual([
      ["/work/cache/abc", "/work/cache/abc"],
      ["/opt/python", "/opt/python"],
    ]);
    expect(uses(args, "--tmpfs", 1)).toEqual([["/etc/ssh"], ["/tmp"]]);
    expect(args).not.toContain("--bind");
    expect(uses(args, "--chdir", 1)).toEqual([["/work/cache/abc"]]);
  });

  it("runs the argv itself without a network route, and a relay that starts it with one", () => {
    expect(args.slice(args.indexOf("--") + 1)).toEqual(["python3", "agent.py"]);
    const routed = bwrapArgs({
      layout,
      cwd: "/c",
      argv: ["python3", "agent.py"],
      network: { port: 4100, socket: "/tmp/r/model.sock", node: "/usr/bin/node" },
    });
    expect(uses(routed, "--ro-bind", 2)).toContainEqual(["/tmp/r/model.sock", insideSocket]);
    const command = routed.slice(routed.indexOf("--") + 1);
    expect(command[0]).toBe("/usr/bin/node");
    expect(command[1]).toBe("-e");
    expect(command.slice(3)).toEqual(["4100", insideSocket, "python3", "agent.py"]);
  });
});
