// The reference page's own build: a bare Remix 2 + React 18 app with one route, so that the server
// benchmark can say what a page costs over what Remix itself costs (bench/server-throughput.ts).
// Built by `npx remix vite:build --config bench/reference/vite.config.ts` (the benchmark does it when stale).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root,
  logLevel: "warn",
  plugins: [
    remix({
      appDirectory: path.join(root, "app"),
      buildDirectory: path.join(root, "build"),
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
});
