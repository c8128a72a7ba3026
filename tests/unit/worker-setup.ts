import { copyFileSync, mkdirSync } from "node:fs";
import { randomUUID } from "node:crypto";
import path from "node:path";

// Runs before each test file's imports: point the app at a fresh copy of the migrated template,
// so every test file has a real SQLite database of its own.
const templateDir = path.resolve("tests/.tmp/unit");
const dataDir = path.join(templateDir, `run-${randomUUID()}`);
mkdirSync(dataDir, { recursive: true });
copyFileSync(path.join(templateDir, "template", "trusted-sitters.db"), path.join(dataDir, "trusted-sitters.db"));
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "test";
