/// <reference types="vitest/config" />
import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { availableParallelism } from "node:os";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const isVitest = process.env.VITEST === "true";

const ROOT_CHUNK = [
  "/platform/ui/language-switcher",
  "/platform/ui/page-header",
  "/remix-utils/build/react/honeypot",
  "vite/preload-helper",
];

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    tailwindcss(),
    !isVitest &&
      remix({
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
          v3_routeConfig: true,
        },
      }),
    tsconfigPaths(),
  ],
  server: { hmr: { port: Number(process.env.HMR_PORT ?? 24678) } },
  optimizeDeps: {
    exclude: ["better-sqlite3", "kysely", "@node-rs/argon2", "nodemailer", "pino", "prom-client"],
    include: [
      "react",
      "react-dom",
      "react-dom/client",
      "react/jsx-runtime",
      "i18next",
      "react-i18next",
      "@conform-to/react",
      "zod/v4-mini",
    ],
  },
  build: {
    target: "es2020",
    // The browser's code is minified by terser, which makes it smaller than esbuild's minifier
    // (bench/first-load-js.ts); the server's code stays readable.
    minify: isSsrBuild ? false : "terser",
    terserOptions: { compress: { passes: 2 } },
    // Small shared chunks join a chunk loaded with them: each file is a round trip on a slow phone's
    // connection.
    rollupOptions: isSsrBuild
      ? {}
      : {
          // Feature modules only declare (components, schemas, constants): one a page does not use
          // is left out even though the feature's entry file re-exports it.
          treeshake: { moduleSideEffects: (id: string) => !id.includes("/app/features/") },
          output: {
            // The language switcher (on four pages) stays a chunk of its own: merged, it landed in a
            // chunk the root loads and every page paid for it.
            // So do small modules every page loads (the root's honeypot provider, Vite's preload helper, the page
            // header): left alone, they were merged into one page's chunk (a form, the role step), which every
            // page then loaded.
            manualChunks: (id) => (ROOT_CHUNK.some((part) => id.includes(part)) ? "language-switcher" : undefined),
            // Rollup merges small shared chunks into a bigger one loaded by the same pages and by others, so a page
            // loaded modules it never uses (/profile/edit took the chunks of pet setup, the photo picker and the
            // booking actions): no merging, each page loads what its modules need.
            experimentalMinChunkSize: 0,
          },
          // Resource routes (webhooks, media, events) have no browser code, so their route chunk is
          // empty by design and never loaded.
          onwarn(warning, warn) {
            if (warning.code !== "EMPTY_BUNDLE") warn(warning);
          },
        },
  },
  test: {
    include: ["app/**/*.test.ts", "db/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["./tests/unit/global-setup.ts"],
    setupFiles: ["./tests/unit/worker-setup.ts"],
    pool: "forks",
    // Vitest keeps a core free for itself by default, which on a two-core machine is one test file at a
    // time. Its own process mostly waits, and so does a file while its database answers: one file more
    // than cores keeps them busy.
    maxWorkers: availableParallelism() + 1,
    // Expected failures (a processor that is down, a refused webhook) log as the server would;
    // only a failing test's logs are worth reading.
    silent: "passed-only",
    // Timings are not what these tests check: a loaded two-core machine must not fail them.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
}));
