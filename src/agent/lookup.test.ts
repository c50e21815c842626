import { describe, expect, it } from "vitest";
import { lookupKey } from "./lookup.js";

const knowledge =
  "# Facts\n\n## Ada Lovelace\n- born: 1815\n- field: mathematics\n\n## Paris\n- country: France\n";

describe("lookup", () => {
  it("returns the entry for a key matched case-insensitively after trimming", () => {
    expect(lookupKey({ key: "  ada   LOVELACE ", files: [knowledge] })).toEqual({
      ok: true,
      text: "## Ada Lovelace\n- born: 1815\n- field: mathematics",
    });
    expect(lookupKey({ key: "Paris", files: ["## Rome\n- country: Italy\n", knowledge] })).toEqual({
      ok: true,
      text: "## Paris\n- country: France",
    });
  });
  it("returns an error for an unknown key", () => {
    expect(lookupKey({ key: "Berlin", files: [knowledge] })).toEqual({
      ok: false,
      error: "error: no entry named 'Berlin'",
    });
    expect(lookupKey({ key: "Facts", files: [knowledge] }).ok).toBe(false);
  });
});
