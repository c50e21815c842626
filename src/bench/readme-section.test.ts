import { describe, expect, it } from "vitest";
import { readmeMarkers, replaceReadmeSection } from "./readme-section.js";

describe("replaceReadmeSection", () => {
  it("replaces only the text between the markers", () => {
    const readme = `# X\n\nintro\n\n${readmeMarkers.start}\nold figures\n${readmeMarkers.end}\n\n## After\n`;
    const updated = replaceReadmeSection(readme, "new figures");
    expect(updated).toBe(
      `# X\n\nintro\n\n${readmeMarkers.start}\nnew figures\n${readmeMarkers.end}\n\n## After\n`,
    );
    expect(replaceReadmeSection(updated, "newer")).toContain(
      `${readmeMarkers.start}\nnewer\n${readmeMarkers.end}`,
    );
  });

  it("appends a performance section when the markers are missing", () => {
    const updated = replaceReadmeSection("# X\n", "figures");
    expect(updated).toBe(
      `# X\n\n## Performance\n\n${readmeMarkers.start}\nfigures\n${readmeMarkers.end}\n`,
    );
  });
});
