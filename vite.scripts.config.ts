import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

// The operator's commands (db:migrate, db:seed, db:restore, admin:*) compiled to plain JavaScript in
// build/scripts, so they run in the production image, where tsx and the rest of the development
// dependencies are pruned. Packages stay imports of node_modules, as in the server build.
// Run by `npm run build` after the app's build; scripts/run-script.js picks this or the TypeScript source.
export const OPERATOR_SCRIPTS = ["db", "db-restore", "admin"] as const;

export default defineConfig({
  plugins: [tsconfigPaths()],
  publicDir: false,
  logLevel: "warn",
  build: {
    ssr: true,
    target: "node20",
    outDir: "build/scripts",
    emptyOutDir: true,
    minify: false,
    rollupOptions: {
      input: Object.fromEntries(OPERATOR_SCRIPTS.map((name) => [name, `scripts/${name}.ts`])),
      output: { format: "esm", entryFileNames: "[name].js", chunkFileNames: "chunks/[name]-[hash].js" },
    },
  },
});
