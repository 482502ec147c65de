// Builds the Activity's client into dist/ with a content-hashed file name (Discord's proxy and the
// browser may cache it for long: a changed file gets a new name), and dist/manifest.json, which
// names the current file for the server: {"discord.js": "discord-<hash>.js"}.
// Run by the project's scripts (scripts/_webapp.sh) after `npm ci`; by hand: `npm run build`.
import { build } from "esbuild";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename } from "node:path";

const out = new URL("./dist/", import.meta.url).pathname;
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const result = await build({
  entryPoints: { discord: new URL("./entry.js", import.meta.url).pathname },
  bundle: true,
  format: "iife",
  minify: true,
  target: ["es2020"],
  entryNames: "[name]-[hash]",
  outdir: out,
  metafile: true,
  logLevel: "warning",
});
const built = Object.keys(result.metafile.outputs).map((p) => basename(p));
const file = built.find((name) => name.startsWith("discord-") && name.endsWith(".js"));
writeFileSync(out + "manifest.json", JSON.stringify({ "discord.js": file }) + "\n");
console.log(`built webapp/dist/${file} (${readdirSync(out).length - 1} file(s))`);
