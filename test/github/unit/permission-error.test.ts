import { describe, expect, it } from "vitest";
import {
  apiPermissionError,
  GitHubPermissionError,
  permissionFor,
  pushRefusal,
} from "../../../src/github/permission-error.js";

describe("permission errors", () => {
  it("maps each call the Action makes to the permissions: entry it needs", () => {
    expect(permissionFor("POST", "/repos/{owner}/{repo}/statuses/{sha}")?.permission).toBe(
      "statuses: write",
    );
    expect(permissionFor("post", "/repos/{owner}/{repo}/pulls")?.permission).toBe(
      "pull-requests: write",
    );
    expect(
      permissionFor("PATCH", "/repos/{owner}/{repo}/issues/comments/{comment_id}")?.permission,
    ).toBe("pull-requests: write");
    expect(permissionFor("DELETE", "/repos/{owner}/{repo}/git/refs/{ref}")).toBeUndefined();
  });

  it("only GitHub's missing-permission 403 becomes a permission error", () => {
    const refused = apiPermissionError({
      method: "POST",
      route: "/repos/{owner}/{repo}/statuses/{sha}",
      status: 403,
      message: "Resource not accessible by integration",
    });
    expect(refused).toBeInstanceOf(GitHubPermissionError);
    expect(refused?.message).toContain("'statuses: write'");
    expect(refused?.status).toBe(403);
    const limited = apiPermissionError({
      method: "POST",
      route: "/repos/{owner}/{repo}/statuses/{sha}",
      status: 403,
      message: "You have exceeded a secondary rate limit",
    });
    expect(limited).toBeUndefined();
  });

  it("a push refused over HTTPS with 403 names 'contents: write'; other push failures stay git's", () => {
    const https = pushRefusal({
      branch: "ecdysis/harness",
      stderr:
        "remote: Permission to octo-org/agent.git denied to github-actions[bot].\nfatal: unable to access 'https://github.com/octo-org/agent/': The requested URL returned error: 403",
    });
    expect(https).toBeInstanceOf(GitHubPermissionError);
    expect(https.message).toContain("'contents: write'");
    const stale = pushRefusal({ branch: "ecdysis/harness", stderr: "! [rejected] (stale info)" });
    expect(stale).not.toBeInstanceOf(GitHubPermissionError);
    expect(stale.message).toContain("stale info");
  });
});
