// npm run db:migrate | db:seed | db:restore | admin:grant | admin:revoke go through here:
//   node scripts/run-script.js <name> [arguments...]
// With the development dependencies installed, runs scripts/<name>.ts through tsx (always the current
// source). Without them (the production image, after `npm prune --omit=dev`), runs the JavaScript that
// `npm run build` compiled into build/scripts/<name>.js.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [name, ...args] = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(root, "scripts", `${name}.ts`);
const compiled = path.join(root, "build", "scripts", `${name}.js`);

function hasTsx() {
  try {
    createRequire(import.meta.url).resolve("tsx");
    return true;
  } catch {
    return false;
  }
}

let command;
if (!name || !/^[a-z-]+$/.test(name)) {
  console.error("Usage: node scripts/run-script.js <script name> [arguments...]");
  process.exit(2);
} else if (hasTsx() && existsSync(source)) {
  command = ["--import", "tsx", source, ...args];
} else if (existsSync(compiled)) {
  command = [compiled, ...args];
} else {
  console.error(`No build of scripts/${name}.ts found: run \`npm run build\` first.`);
  process.exit(2);
}
const result = spawnSync(process.execPath, command, { stdio: "inherit" });
if (result.error) throw result.error;
process.exit(result.status ?? (result.signal ? 1 : 0));
