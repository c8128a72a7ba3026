import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

const base = { NODE_ENV: "test", DATA_DIR: mkdtempSync(path.join(tmpdir(), "env-")) } as const;
const secrets = { SESSION_SECRET: "s".repeat(32), SMTP_URL: "smtp://mail.example.com:587" };

describe("configuration", () => {
  it("gives email links a local APP_URL in development, tests and demo mode, from PORT, and never a trailing slash", () => {
    expect(parseEnv({ ...base, NODE_ENV: "development" }).APP_URL).toBe("http://localhost:3000");
    expect(parseEnv({ ...base, NODE_ENV: "test", PORT: "4123" }).APP_URL).toBe("http://localhost:4123");
    expect(parseEnv({ ...base, NODE_ENV: "production", DEMO_MODE: "true", PORT: "8080", APP_URL: "" }).APP_URL).toBe(
      "http://localhost:8080",
    );
    expect(parseEnv({ ...base, ...secrets, NODE_ENV: "production", APP_URL: "https://sitters.example/" }).APP_URL).toBe(
      "https://sitters.example",
    );
  });

  it("refuses a strict production start without APP_URL", () => {
    expect(() => parseEnv({ ...base, ...secrets, NODE_ENV: "production" })).toThrow(/APP_URL/);
  });

  it("on PostgreSQL (several instances), refuses a production or demo start without a shared SESSION_SECRET", () => {
    const postgres = { DATABASE_URL: "postgres://app@db.internal:5432/sitters" };
    expect(() => parseEnv({ ...base, ...postgres, NODE_ENV: "production", DEMO_MODE: "true" })).toThrow(
      /SESSION_SECRET/,
    );
    expect(
      parseEnv({ ...base, ...postgres, ...secrets, NODE_ENV: "production", DEMO_MODE: "true" }).sessionSecret,
    ).toBe(secrets.SESSION_SECRET);
    expect(() => parseEnv({ ...base, DATABASE_URL: "mysql://app@db/sitters" })).toThrow(/DATABASE_URL/);
  });

  it("never sends real email in demo mode, even with SMTP_URL set, and says so", () => {
    const demo = parseEnv({ ...base, ...secrets, NODE_ENV: "production", DEMO_MODE: "true" });
    expect(demo.SMTP_URL).toBeUndefined();
    expect(demo.smtpIgnoredInDemo).toBe(true);
    expect(demo.devToolsEnabled).toBe(true);
    const production = parseEnv({ ...base, ...secrets, NODE_ENV: "production", APP_URL: "https://sitters.example" });
    expect(production.SMTP_URL).toBe(secrets.SMTP_URL);
    expect(production.smtpIgnoredInDemo).toBe(false);
    expect(production.devToolsEnabled).toBe(false);
    expect(production.clockMovable).toBe(false);
    expect(demo.clockMovable).toBe(false);
  });

  it("opens the tests' doors on a production build only in TEST_MODE, and never on https", () => {
    const testServer = parseEnv({ ...base, NODE_ENV: "production", TEST_MODE: "true" });
    expect(testServer.devToolsEnabled).toBe(true);
    expect(testServer.clockMovable).toBe(true);
    expect(() =>
      parseEnv({ ...base, ...secrets, NODE_ENV: "production", TEST_MODE: "true", APP_URL: "https://sitters.example" }),
    ).toThrow(/TEST_MODE/);
  });

  it("reads the sizes of the sign-in and reset limits", () => {
    const defaults = parseEnv({ ...base });
    expect([
      defaults.AUTH_SIGNIN_FREE_FAILURES,
      defaults.AUTH_SIGNIN_FIRST_DELAY_SECONDS,
      defaults.AUTH_SIGNIN_MAX_DELAY_SECONDS,
    ]).toEqual([5, 1, 60]);
    expect([defaults.AUTH_RESET_RATE_LIMIT, defaults.AUTH_RESET_RATE_LIMIT_WINDOW_SECONDS]).toEqual([5, 3600]);
    const raised = parseEnv({ ...base, AUTH_RESET_RATE_LIMIT: "10000", AUTH_SIGNIN_FIRST_DELAY_SECONDS: "30" });
    expect([raised.AUTH_RESET_RATE_LIMIT, raised.AUTH_SIGNIN_FIRST_DELAY_SECONDS]).toEqual([10000, 30]);
    expect(() => parseEnv({ ...base, AUTH_SIGNIN_MAX_DELAY_SECONDS: "0" })).toThrow(/AUTH_SIGNIN_MAX_DELAY_SECONDS/);
  });

  it("keeps media on local disk by default, and refuses S3 storage without its bucket and keys", () => {
    expect(parseEnv({ ...base })).toMatchObject({ MEDIA_STORAGE: "local", s3: null });
    expect(parseEnv({ ...base, MEDIA_STORAGE: "", S3_BUCKET: "ignored" }).s3).toBeNull();
    expect(() => parseEnv({ ...base, MEDIA_STORAGE: "s3", S3_BUCKET: "media" })).toThrow(
      /MEDIA_STORAGE=s3 without S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/,
    );
    expect(() =>
      parseEnv({ ...base, MEDIA_STORAGE: "s3", S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret" }),
    ).toThrow(/without S3_BUCKET/);
    expect(() => parseEnv({ ...base, MEDIA_STORAGE: "gcs" })).toThrow(/MEDIA_STORAGE/);
    expect(() =>
      parseEnv({
        ...base,
        MEDIA_STORAGE: "s3",
        S3_BUCKET: "../Media",
        S3_ACCESS_KEY_ID: "id",
        S3_SECRET_ACCESS_KEY: "secret",
      }),
    ).toThrow(/S3_BUCKET/);
    expect(() =>
      parseEnv({
        ...base,
        MEDIA_STORAGE: "s3",
        S3_BUCKET: "media",
        S3_ENDPOINT: "ftp://x",
        S3_ACCESS_KEY_ID: "id",
        S3_SECRET_ACCESS_KEY: "secret",
      }),
    ).toThrow(/S3_ENDPOINT/);
    const keys = { S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret" };
    expect(parseEnv({ ...base, ...keys, MEDIA_STORAGE: "s3", S3_BUCKET: "sitters-media", S3_REGION: "" }).s3).toEqual({
      bucket: "sitters-media",
      endpoint: undefined,
      region: "us-east-1",
      accessKeyId: "id",
      secretAccessKey: "secret",
      forcePathStyle: false,
    });
    expect(
      parseEnv({
        ...base,
        ...keys,
        MEDIA_STORAGE: "s3",
        S3_BUCKET: "media",
        S3_ENDPOINT: "http://127.0.0.1:9000",
        S3_REGION: "auto",
        S3_FORCE_PATH_STYLE: "true",
      }).s3,
    ).toMatchObject({
      endpoint: "http://127.0.0.1:9000",
      region: "auto",
      forcePathStyle: true,
    });
  });
});
