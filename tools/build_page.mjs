// Builds the web page for serving (issue 42, part 5): src/foursquare/web/static/dist/ gets
//   app-<hash>.js         every module of the page bundled from app.js and minified (esbuild)
//   theme-init-<hash>.js  the classic script that sets the theme before the first paint, minified
//   page-<hash>.css       style.css, fonts.css, learn.css, daily.css and preferences.css in one minified sheet
//   index.html            static/index.html pointing at those
//   manifest.json         what was built from what: the digest of the sources, the files each replaces
// each with its gzip copy (<name>.gz). The hash is a digest of the file's bytes: the server sends these files with an immutable cache lifetime
// (routes/page.py), and a new release has new names. The source modules stay the source: tsc checks them,
// and the server serves them as they are while no build is present, or when it is older than they are.
//   node tools/build_page.mjs            (make page, make serve, make test)
//   node tools/build_page.mjs --out DIR  (the same files written to DIR instead: the tests' build)
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const STATIC = join(ROOT, "src", "foursquare", "web", "static");
const out = process.argv.indexOf("--out");
const TARGET_DIR = out > 0 ? process.argv[out + 1] : join(STATIC, "dist");
// Written beside it, then put in its place: a server reading the build never sees half of one.
const DIST = `${TARGET_DIR}.tmp-${process.pid}`;
const SHEETS = ["style.css", "fonts.css", "learn.css", "daily.css", "preferences.css"];
// Browsers that run ES2022 modules: what the page's source is written in (tsconfig.json's target).
const TARGET = ["es2022"];

/** @param {string | Uint8Array} data */
const digest = (data) => createHash("sha256").update(data).digest("hex");

/** The digest of the sources the page is built from: every .js, .css and .html of static/, by name (sorted). */
export function sourceDigest() {
  const hash = createHash("sha256");
  for (const name of readdirSync(STATIC).filter((n) => /\.(js|css|html)$/.test(n)).sort()) {
    hash.update(name + "\0");
    hash.update(readFileSync(join(STATIC, name)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/**
 * `text` written as dist/<stem>-<hash>.<ext>; returns its name.
 * @param {string} stem @param {string} ext @param {string} text
 */
function emit(stem, ext, text) {
  const name = `${stem}-${digest(text).slice(0, 12)}.${ext}`;
  writeFileSync(join(DIST, name), text);
  // Compressed once here rather than on each request: the server sends this copy to a browser that takes gzip.
  writeFileSync(join(DIST, name + ".gz"), gzipSync(text, { level: 9 }));
  return name;
}

async function main() {
  const sources = sourceDigest();
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });
  try {
    await write(sources);
  } catch (error) {
    rmSync(DIST, { recursive: true, force: true });
    throw error;
  }
  rmSync(TARGET_DIR, { recursive: true, force: true });
  renameSync(DIST, TARGET_DIR);
}

/** @param {string} sources */
async function write(sources) {

  const app = await esbuild.build({
    entryPoints: [join(STATIC, "app.js")],
    bundle: true,
    format: "esm",
    minify: true,
    target: TARGET,
    write: false,
    metafile: true,
    legalComments: "none",
    logLevel: "warning",
  });
  const appName = emit("app", "js", app.outputFiles[0].text);

  const themeInit = await esbuild.transform(readFileSync(join(STATIC, "theme-init.js"), "utf8"), {
    minify: true,
    target: TARGET,
    legalComments: "none",
  });
  const themeName = emit("theme-init", "js", themeInit.code);

  // One sheet; fonts.css's url("fonts/…") become /static/fonts/…, where the fonts stay (fetched only when a
  // script of theirs is shown; the service worker keeps them once fetched).
  const css = [];
  for (const sheet of SHEETS) {
    const source = readFileSync(join(STATIC, sheet), "utf8").replace(/url\("fonts\//g, 'url("/static/fonts/');
    css.push((await esbuild.transform(source, { loader: "css", minify: true, target: ["chrome111", "firefox113", "safari16.4"] })).code);
  }
  const cssName = emit("page", "css", css.join(""));

  let html = readFileSync(join(STATIC, "index.html"), "utf8");
  /** @param {string} from @param {string} to */
  const swap = (from, to) => {
    if (!html.includes(from)) throw new Error(`index.html no longer has ${from}`);
    html = html.replace(from, to);
  };
  const links = SHEETS.map((sheet) => `<link rel="stylesheet" href="/static/${sheet}">`);
  swap(links.join("\n  "), `<link rel="stylesheet" href="/static/dist/${cssName}">`);
  swap('<script src="/static/theme-init.js"></script>', `<script src="/static/dist/${themeName}"></script>`);
  swap('<link rel="modulepreload" href="/static/app.js">', `<link rel="modulepreload" href="/static/dist/${appName}">`);
  swap('<script type="module" src="/static/app.js"></script>', `<script type="module" src="/static/dist/${appName}"></script>`);
  writeFileSync(join(DIST, "index.html"), html);

  // The sources the built files stand for: the service worker does not keep them (routes/pwa.py).
  const replaced = Object.keys(app.metafile.inputs)
    .map((path) => path.split("/").pop() ?? path)
    .concat(SHEETS, ["theme-init.js"])
    .sort();
  const manifest = {
    sources,
    files: { "app.js": `dist/${appName}`, "theme-init.js": `dist/${themeName}`, "page.css": `dist/${cssName}` },
    replaces: [...new Set(replaced)],
  };
  writeFileSync(join(DIST, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  console.log(`built ${appName}, ${themeName}, ${cssName} in ${TARGET_DIR}`);
}

await main();
