import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default("./data"),
  /** Public origin used in email links, e.g. https://trustedsitters.example. */
  APP_URL: z.string().url().optional(),
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters").optional(),
  SMTP_URL: z.string().url().optional(),
  EMAIL_FROM: z.string().default("Trusted Sitters <hello@trusted-sitters.local>"),
  DEMO_MODE: flag,
  PAYMENT_PROVIDER: z.enum(["test", "stripe"]).default("test"),
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(3600),
  FLY_APP_NAME: z.string().optional(),
});

export type Env = z.infer<typeof schema> & {
  sessionSecret: string;
  /** The outbox and /dev/outbox exist outside production, and in demo mode. */
  devToolsEnabled: boolean;
};

function parseEnv(): Env {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment:\n${problems}`);
  }
  const env = parsed.data;
  const strictProduction = env.NODE_ENV === "production" && !env.DEMO_MODE;
  if (strictProduction) {
    const missing = [
      !env.SESSION_SECRET && "SESSION_SECRET",
      !env.SMTP_URL && "SMTP_URL",
      !env.APP_URL && "APP_URL",
    ].filter(Boolean);
    if (missing.length > 0) {
      throw new Error(
        `Refusing to start in production without ${missing.join(", ")}. ` +
          "Set them, or start with DEMO_MODE=true for a demonstration.",
      );
    }
  }
  return {
    ...env,
    sessionSecret: env.SESSION_SECRET ?? localSessionSecret(env.DATA_DIR),
    devToolsEnabled: env.NODE_ENV !== "production" || env.DEMO_MODE,
  };
}

/** Outside strict production a secret is generated once and kept in the data directory, so restarts keep sessions. */
function localSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, ".session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export const env: Env = parseEnv();
