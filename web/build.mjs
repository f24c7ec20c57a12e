// Builds what solver-server embeds (`dist/`, committed): the page, one bundled script and one
// stylesheet. `node build.mjs --check` builds in memory and fails when `dist/` differs, so CI can
// tell a stale bundle.
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
const check = process.argv.includes("--check");

const result = await esbuild.build({
  entryPoints: [join(here, "src/main.ts")],
  bundle: true,
  format: "esm",
  target: ["es2022"],
  minify: true,
  legalComments: "none",
  charset: "utf8",
  outfile: join(dist, "app.js"),
  write: !check,
  logLevel: "warning",
});

const page = join(here, "src/index.html");
if (check) {
  const stale = [];
  const outputs = result.outputFiles.map((file) => [file.path, file.contents]);
  outputs.push([join(dist, "index.html"), readFileSync(page)]);
  for (const [path, contents] of outputs) {
    let committed;
    try {
      committed = readFileSync(path);
    } catch {
      committed = null;
    }
    if (committed === null || !committed.equals(Buffer.from(contents))) {
      stale.push(path);
    }
  }
  if (stale.length > 0) {
    console.error(`web/dist is stale (run \`npm run build\` in web/): ${stale.join(", ")}`);
    process.exit(1);
  }
  console.log("web/dist is up to date");
} else {
  mkdirSync(dist, { recursive: true });
  copyFileSync(page, join(dist, "index.html"));
}
