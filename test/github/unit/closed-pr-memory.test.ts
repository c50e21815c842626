import { describe, expect, it } from "vitest";
import {
  type ClosedPullRequest,
  decideProposal,
  declinedNote,
  proposalNotice,
} from "../../../src/github/closed-pr-memory.js";

const closed = (fields: Partial<ClosedPullRequest> = {}): ClosedPullRequest => ({
  number: 4,
  url: "https://github.com/o/r/pull/4",
  merged: false,
  byBot: false,
  fingerprint: "aaaaaaaaaaaaaaaaaaaaaaaa",
  labels: [],
  ...fields,
});

const decide = (lastClosed: ClosedPullRequest | undefined, reopenInput = false) =>
  decideProposal({
    history: { open: false, lastClosed },
    fingerprint: "aaaaaaaaaaaaaaaaaaaaaaaa",
    reopenInput,
  }).kind;

describe("decideProposal", () => {
  it("the same change a human closed unmerged is declined; a different or unknown one supersedes it", () => {
    expect(decide(closed())).toBe("declined");
    expect(decide(closed({ fingerprint: "bbbbbbbbbbbbbbbbbbbbbbbb" }))).toBe("supersede");
    expect(decide(closed({ fingerprint: undefined }))).toBe("supersede");
  });

  it("the label on the closed PR or the input proposes it again on purpose", () => {
    expect(decide(closed({ labels: ["ecdysis-reopen"] }))).toBe("reopen");
    expect(decide(closed(), true)).toBe("reopen");
  });

  it("an open PR, no history, a merged PR or one the bot closed itself is no human decision", () => {
    expect(
      decideProposal({ history: { open: true }, fingerprint: "a", reopenInput: false }).kind,
    ).toBe("propose");
    expect(decide(undefined)).toBe("propose");
    expect(decide(closed({ merged: true }))).toBe("propose");
    expect(decide(closed({ byBot: true }))).toBe("propose");
  });

  it("says how to re-open, and links the closed PR from the new one", () => {
    expect(declinedNote(closed())).toContain("add the label `ecdysis-reopen` to #4");
    expect(declinedNote(closed())).toContain("`reopen-closed: true`");
    expect(proposalNotice({ kind: "supersede", closed: closed() })).toContain("#4");
    expect(proposalNotice({ kind: "propose" })).toBeUndefined();
  });
});
