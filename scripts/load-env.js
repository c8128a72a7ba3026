// Settings from ./.env (see .env.example) when the file exists; variables already set win.
// Test runs never read it, so a developer's own settings (a real SMTP_URL) cannot reach them.
import { existsSync } from "node:fs";

const testRun = process.env.NODE_ENV === "test" || process.env.TEST_MODE === "true";
if (!testRun && existsSync(".env")) process.loadEnvFile(".env");
