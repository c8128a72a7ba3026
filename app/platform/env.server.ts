import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "./validation";

const flag = z.pipe(
  z.optional(z.enum(["true", "false", "1", "0", ""])),
  z.transform((value) => value === "true" || value === "1"),
);

// An empty value (`STRIPE_SECRET_KEY=` in a .env file) counts as unset.
const optional = <T extends z.core.SomeType>(inner: T) =>
  z.pipe(
    z.transform((value: unknown) => (value === "" ? undefined : value)),
    z.optional(inner),
  );
const pattern = (regex: RegExp, message: string) => z.string().check(z.regex(regex, message));
const count = (minimum: number, fallback: number) =>
  z._default(z.coerce.number().check(z.int(), z.gte(minimum)), fallback);
const seconds = (fallback: number) => z._default(z.coerce.number().check(z.gte(0.001), z.lte(3600)), fallback);
const port = () => z.coerce.number().check(z.int(), z.gte(1), z.lte(65535));
const trimmed = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));

const schema = z.object({
  NODE_ENV: z._default(z.enum(["development", "production", "test"]), "development"),
  PORT: z._default(port(), 3000),
  DATA_DIR: z._default(z.string().check(z.minLength(1)), "./data"),
  // PostgreSQL instead of SQLite in DATA_DIR (which still holds media stored on local disk).
  DATABASE_URL: optional(
    z
      .url("DATABASE_URL is a URL, such as postgres://user:password@host:5432/database")
      .check(z.regex(/^postgres(ql)?:\/\//, "DATABASE_URL starts with postgres:// or postgresql://")),
  ),
  // Connections each instance keeps to PostgreSQL (writers run side by side, each on its own connection).
  DATABASE_POOL_SIZE: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(200)), 10),
  APP_URL: optional(z.url()),
  SESSION_SECRET: z.optional(z.string().check(z.minLength(32, "SESSION_SECRET must be at least 32 characters"))),
  SMTP_URL: z.optional(z.url()),
  EMAIL_FROM: z._default(z.string(), "Trusted Sitters <hello@trusted-sitters.local>"),
  DEMO_MODE: flag,
  // The end-to-end tests' server: the production build with the tests' doors open (the clock and the
  // outbox under /dev) and secrets made on disk. Refused where APP_URL is https, as a real site is.
  TEST_MODE: flag,
  PAYMENT_PROVIDER: optional(z.enum(["test", "stripe"])),
  STRIPE_SECRET_KEY: optional(pattern(/^(sk|rk)_/, "STRIPE_SECRET_KEY starts with sk_ or rk_")),
  STRIPE_PUBLISHABLE_KEY: optional(pattern(/^pk_/, "STRIPE_PUBLISHABLE_KEY starts with pk_")),
  STRIPE_WEBHOOK_SECRET: optional(pattern(/^whsec_/, "STRIPE_WEBHOOK_SECRET starts with whsec_")),
  STRIPE_API_HOST: optional(z.string()),
  STRIPE_API_PORT: optional(port()),
  STRIPE_API_PROTOCOL: optional(z.enum(["http", "https"])),
  AUTH_RATE_LIMIT: count(1, 10),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: count(1, 3600),
  MAX_STREAMS_PER_SESSION: count(1, 5),
  MAX_STREAMS_PER_PERSON: count(1, 5),
  POSITION_CHANGES_PER_DAY: count(1, 10),
  REPORTS_PER_DAY: count(1, 20),
  AUTH_RESET_RATE_LIMIT: count(1, 5),
  AUTH_RESET_RATE_LIMIT_WINDOW_SECONDS: count(1, 3600),
  AUTH_SIGNIN_FREE_FAILURES: count(1, 5),
  AUTH_SIGNIN_FIRST_DELAY_SECONDS: seconds(1),
  AUTH_SIGNIN_MAX_DELAY_SECONDS: seconds(60),
  AUTH_SIGNIN_FAILURE_WINDOW_SECONDS: count(1, 900),
  FLY_APP_NAME: z.optional(z.string()),
  TRUST_PROXY_HEADER: optional(
    z
      .pipe(
        pattern(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, "TRUST_PROXY_HEADER is a header name, such as X-Real-IP"),
        z.transform((name) => name.toLowerCase()),
      )
      .check(
        z.refine(
          (name) => name !== "forwarded",
          "TRUST_PROXY_HEADER: Forwarded is not supported; use X-Forwarded-For or X-Real-IP",
        ),
      ),
  ),
  TRUST_PROXY_HOPS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(10)), 1),
  // The operator named in the imprint (/imprint) and the privacy policy.
  OPERATOR_NAME: optional(trimmed(200)),
  OPERATOR_ADDRESS: optional(trimmed(500)),
  OPERATOR_EMAIL: optional(
    z.string().check(
      z.trim(),
      z.refine((value) => z.regexes.email.test(value), "OPERATOR_EMAIL is an email address"),
    ),
  ),
  OPERATOR_PHONE: optional(
    z
      .string()
      .check(z.trim(), z.regex(/^\+?[0-9 ()./-]{5,30}$/, "OPERATOR_PHONE is a phone number, such as +34 910 000 000")),
  ),
  OPERATOR_REPRESENTATIVE: optional(trimmed(200)),
  OPERATOR_REGISTER: optional(trimmed(200)),
  OPERATOR_VAT_ID: optional(
    z
      .string()
      .check(
        z.trim(),
        z.regex(/^[A-Z]{2}[0-9A-Z+*.]{2,13}$/, "OPERATOR_VAT_ID is an EU VAT number, such as ESB12345678"),
      ),
  ),
  MEDIA_STORAGE: z.pipe(
    optional(z.enum(["local", "s3"])),
    z.transform((value) => value ?? "local"),
  ),
  S3_BUCKET: optional(
    pattern(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      "S3_BUCKET is a bucket name: 3-63 lowercase letters, digits, dots and hyphens",
    ),
  ),
  S3_ENDPOINT: optional(z.url().check(z.refine((url) => /^https?:\/\//.test(url), "S3_ENDPOINT is an http(s) URL"))),
  S3_REGION: z.pipe(
    optional(pattern(/^[a-z0-9-]{1,40}$/, "S3_REGION is a region name, such as us-east-1 or auto")),
    z.transform((value) => value ?? "us-east-1"),
  ),
  S3_ACCESS_KEY_ID: optional(z.string().check(z.minLength(1))),
  S3_SECRET_ACCESS_KEY: optional(z.string().check(z.minLength(1))),
  S3_FORCE_PATH_STYLE: flag,
  // Web Push: the server's VAPID key pair (base64url, as `npx web-push generate-vapid-keys` prints) and
  // the contact the push services see. Without keys, development, demo and tests make a pair once and
  // keep it in the database; production without them offers no push.
  VAPID_PUBLIC_KEY: optional(pattern(/^[A-Za-z0-9_-]{86,88}$/, "VAPID_PUBLIC_KEY is a base64url P-256 public key")),
  VAPID_PRIVATE_KEY: optional(pattern(/^[A-Za-z0-9_-]{42,44}$/, "VAPID_PRIVATE_KEY is a base64url P-256 private key")),
  VAPID_SUBJECT: optional(
    pattern(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, "VAPID_SUBJECT is a mailto: address or an https URL"),
  ),
  // End-to-end and unit tests only (TEST_MODE or NODE_ENV=test): a local fake push service's origin,
  // accepted as a subscription endpoint beside the real push services.
  PUSH_TEST_SERVICE_ORIGIN: optional(z.url()),
  // Operations: the bearer token that opens /metrics (without one, /metrics answers 404), and how much is logged.
  METRICS_TOKEN: optional(
    z.string().check(z.minLength(16, "METRICS_TOKEN must be at least 16 characters (e.g. openssl rand -hex 24)")),
  ),
  LOG_LEVEL: optional(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])),
  // Off-machine backups of the SQLite database: on when BACKUP_S3_BUCKET is set. The endpoint, region and
  // keys default to the media bucket's S3_* ones (the same account, another bucket or prefix).
  BACKUP_S3_BUCKET: optional(
    pattern(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      "BACKUP_S3_BUCKET is a bucket name: 3-63 lowercase letters, digits, dots and hyphens",
    ),
  ),
  BACKUP_S3_ENDPOINT: optional(
    z.url().check(z.refine((url) => /^https?:\/\//.test(url), "BACKUP_S3_ENDPOINT is an http(s) URL")),
  ),
  BACKUP_S3_REGION: optional(pattern(/^[a-z0-9-]{1,40}$/, "BACKUP_S3_REGION is a region name, such as us-east-1")),
  BACKUP_S3_ACCESS_KEY_ID: optional(z.string().check(z.minLength(1))),
  BACKUP_S3_SECRET_ACCESS_KEY: optional(z.string().check(z.minLength(1))),
  BACKUP_S3_FORCE_PATH_STYLE: optional(z.enum(["true", "false", "1", "0"])),
  BACKUP_S3_PREFIX: z.pipe(
    optional(
      pattern(/^([A-Za-z0-9._-]+\/)*$/, "BACKUP_S3_PREFIX is a folder-like prefix ending in /, such as backups/"),
    ),
    z.transform((value) => value ?? "backups/"),
  ),
  BACKUP_INTERVAL_MINUTES: z.pipe(
    optional(z.coerce.number().check(z.int(), z.gte(5), z.lte(24 * 60))),
    z.transform((value) => value ?? 60),
  ),
  BACKUP_KEEP_HOURLY: z.pipe(
    optional(z.coerce.number().check(z.int(), z.gte(1))),
    z.transform((value) => value ?? 48),
  ),
  BACKUP_KEEP_DAILY: z.pipe(
    optional(z.coerce.number().check(z.int(), z.gte(0))),
    z.transform((value) => value ?? 30),
  ),
});

/** What the imprint must name; the rest only where the operator has one (a register entry, a VAT number). */
export const REQUIRED_OPERATOR_FIELDS = ["OPERATOR_NAME", "OPERATOR_ADDRESS", "OPERATOR_EMAIL"] as const;
export const OPERATOR_FIELDS = [
  ...REQUIRED_OPERATOR_FIELDS,
  "OPERATOR_PHONE",
  "OPERATOR_REPRESENTATIVE",
  "OPERATOR_REGISTER",
  "OPERATOR_VAT_ID",
] as const;

export type Env = Omit<z.infer<typeof schema>, "PAYMENT_PROVIDER" | "APP_URL" | "LOG_LEVEL"> & {
  APP_URL: string;
  /** info by default; warn in unit tests, where only trouble is worth printing. */
  LOG_LEVEL: NonNullable<z.infer<typeof schema>["LOG_LEVEL"]>;
  PAYMENT_PROVIDER: "test" | "stripe";
  sessionSecret: string;
  devToolsEnabled: boolean;
  /** The server's clock may be moved (`/dev/clock`): development, unit tests and TEST_MODE. */
  clockMovable: boolean;
  smtpIgnoredInDemo: boolean;
  /** Set when MEDIA_STORAGE=s3: where photos and attachments live. */
  s3: S3Bucket | null;
  /** Set when BACKUP_S3_BUCKET is: where and how often the SQLite database is backed up. */
  backup: BackupSettings | null;
};

export interface BackupSettings {
  storage: S3Bucket;
  /** Keys of the backups start with it ("" or a folder ending in /). */
  prefix: string;
  intervalMs: number;
  /** The newest backup of each of the last N hours that have one, and of each of the last M days. */
  keepHourly: number;
  keepDaily: number;
}

export interface S3Bucket {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment:\n${problems}`);
  }
  const env = parsed.data;
  if (env.TEST_MODE && env.APP_URL?.startsWith("https:")) {
    throw new Error(
      "Refusing to start with TEST_MODE on an https APP_URL: test mode opens the clock and the outbox to anyone.",
    );
  }
  const strictProduction = env.NODE_ENV === "production" && !env.DEMO_MODE && !env.TEST_MODE;
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
  // Several instances share one PostgreSQL database: a secret each made on its own disk would make the
  // sessions and honeypot fields of one instance invalid on the others.
  if (env.DATABASE_URL && !env.SESSION_SECRET && env.NODE_ENV === "production") {
    throw new Error("Refusing to start on PostgreSQL without SESSION_SECRET: every instance must use the same one.");
  }
  const stripeKeys = Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY);
  const paymentProvider = env.PAYMENT_PROVIDER ?? (stripeKeys && !env.DEMO_MODE ? "stripe" : "test");
  if (paymentProvider === "stripe") {
    const missing = [
      !env.STRIPE_SECRET_KEY && "STRIPE_SECRET_KEY",
      !env.STRIPE_PUBLISHABLE_KEY && "STRIPE_PUBLISHABLE_KEY",
      !env.STRIPE_WEBHOOK_SECRET && "STRIPE_WEBHOOK_SECRET",
    ].filter(Boolean);
    if (missing.length > 0)
      throw new Error(`Refusing to start with PAYMENT_PROVIDER=stripe without ${missing.join(", ")}.`);
    if (env.DEMO_MODE)
      throw new Error("Demo mode uses the test payment provider: unset PAYMENT_PROVIDER=stripe or DEMO_MODE.");
  }
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY))
    throw new Error("Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither.");
  if (env.PUSH_TEST_SERVICE_ORIGIN && !env.TEST_MODE && env.NODE_ENV !== "test")
    throw new Error("PUSH_TEST_SERVICE_ORIGIN is for tests only: it needs TEST_MODE=true.");
  let s3: S3Bucket | null = null;
  if (env.MEDIA_STORAGE === "s3") {
    const { S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = env;
    if (!bucket || !accessKeyId || !secretAccessKey) {
      const missing = [
        !bucket && "S3_BUCKET",
        !accessKeyId && "S3_ACCESS_KEY_ID",
        !secretAccessKey && "S3_SECRET_ACCESS_KEY",
      ].filter(Boolean);
      throw new Error(`Refusing to start with MEDIA_STORAGE=s3 without ${missing.join(", ")}.`);
    }
    s3 = {
      bucket,
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION,
      accessKeyId,
      secretAccessKey,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    };
  }
  return {
    ...env,
    backup: backupSettings(env),
    APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    SMTP_URL: env.DEMO_MODE ? undefined : env.SMTP_URL,
    smtpIgnoredInDemo: Boolean(env.DEMO_MODE && env.SMTP_URL),
    PAYMENT_PROVIDER: paymentProvider,
    LOG_LEVEL: env.LOG_LEVEL ?? (env.NODE_ENV === "test" ? "warn" : "info"),
    sessionSecret: env.SESSION_SECRET ?? localSessionSecret(env.DATA_DIR),
    devToolsEnabled: env.NODE_ENV !== "production" || env.DEMO_MODE || env.TEST_MODE,
    clockMovable: env.NODE_ENV !== "production" || env.TEST_MODE,
    s3,
  };
}

function backupSettings(env: z.infer<typeof schema>): BackupSettings | null {
  if (!env.BACKUP_S3_BUCKET) return null;
  const accessKeyId = env.BACKUP_S3_ACCESS_KEY_ID ?? env.S3_ACCESS_KEY_ID;
  const secretAccessKey = env.BACKUP_S3_SECRET_ACCESS_KEY ?? env.S3_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey)
    throw new Error(
      "Refusing to start with BACKUP_S3_BUCKET without BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY (or S3_*).",
    );
  const forcePathStyle = env.BACKUP_S3_FORCE_PATH_STYLE;
  return {
    storage: {
      bucket: env.BACKUP_S3_BUCKET,
      endpoint: env.BACKUP_S3_ENDPOINT ?? env.S3_ENDPOINT,
      region: env.BACKUP_S3_REGION ?? env.S3_REGION,
      accessKeyId,
      secretAccessKey,
      forcePathStyle: forcePathStyle ? forcePathStyle === "true" || forcePathStyle === "1" : env.S3_FORCE_PATH_STYLE,
    },
    prefix: env.BACKUP_S3_PREFIX,
    intervalMs: env.BACKUP_INTERVAL_MINUTES * 60_000,
    keepHourly: env.BACKUP_KEEP_HOURLY,
    keepDaily: env.BACKUP_KEEP_DAILY,
  };
}

function localSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, ".session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export const env: Env = parseEnv();

export const cookiesAreSecure = env.APP_URL?.startsWith("https:") ?? false;
