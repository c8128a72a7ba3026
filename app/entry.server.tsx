import { Transform, type TransformCallback } from "node:stream";
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { i18nextFor, languageOf } from "~/platform/i18n.server";
import { NonceProvider } from "~/platform/nonce";
import { contentSecurityPolicy, cspSourcesOf } from "~/platform/security.server";
import { logger } from "~/platform/log.server";

export { startApp, stopApp } from "~/jobs.server";
export { closeAllStreams } from "~/platform/events/stream.server";
export { backupDataDir, bucketBackupAdvice, postgresBackupAdvice } from "~/platform/backup.server";
export { copyToPostgres } from "~/copy-to-postgres.server";
export { createNonce, isCrossSiteWrite, securityHeaders } from "~/platform/security.server";
export { clientAddressOf } from "~/platform/client-address.server";
export { createLoadContext, runWithLoadContext } from "~/platform/request-context.server";
export { createHttpServer, createRequestGuard, requestBodyLimits } from "~/platform/http-limits.server";
export { logger, runWithRequestLog } from "~/platform/log.server";
export { createRequestObserver, requestLogOf } from "~/platform/request-observer.server";
export { readyzHandler, setAppPhase } from "~/platform/readiness.server";

const ABORT_DELAY = 5_000;

/**
 * Passes React's output on in one chunk per turn of the event loop instead of one per 2 KB: each chunk
 * costs a trip through the web stream Remix answers with and through the compressor, while the bytes
 * and when they leave (a streamed part still goes out in the turn it is written) stay the same.
 *
 * It emits no "close": React answers a destination's close by aborting, which after a finished page
 * ends the stream a second time and builds an error nobody reads, on every request. A page whose
 * reader leaves before its end is destroyed early, and `onLeftEarly` aborts the render instead.
 */
class OncePerTurn extends Transform {
  #pending: Buffer[] = [];
  #scheduled = false;
  readonly #onLeftEarly: () => void;

  constructor(onLeftEarly: () => void) {
    super({ emitClose: false });
    this.#onLeftEarly = onLeftEarly;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.#pending.push(chunk);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#release());
    }
    done();
  }

  override _flush(done: TransformCallback) {
    this.#release();
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void) {
    if (!this.writableFinished) this.#onLeftEarly();
    done(error);
  }

  #release() {
    this.#scheduled = false;
    if (this.#pending.length === 0 || this.destroyed) return;
    const chunks = this.#pending;
    this.#pending = [];
    this.push(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  }
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const instance = i18nextFor(await languageOf(request));
  const nonce = loadContext.cspNonce;
  // A page that declares extra origins (handle.csp) gets its own policy; server.js lets it replace the default one.
  const extra = cspSourcesOf(
    remixContext.staticHandlerContext.matches.map((match) => remixContext.routeModules[match.route.id]?.handle),
  );
  if (Object.keys(extra).length > 0) {
    responseHeaders.set(
      "Content-Security-Policy",
      contentSecurityPolicy({ nonce, development: process.env.NODE_ENV === "development", extra }),
    );
  }
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const start = () => {
      shellRendered = true;
      const body = new OncePerTurn(() => abort());
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nextProvider i18n={instance}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </I18nextProvider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          if (!waitForAll) start();
        },
        // The page is whole: its render no longer needs the deadline (nor to be held until it).
        onAllReady() {
          clearTimeout(deadline);
          if (waitForAll) start();
        },
        onShellError(error: unknown) {
          clearTimeout(deadline);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error({ event: "render.failed", err: error }, "A page failed while streaming");
        },
      },
    );
    const deadline = setTimeout(abort, ABORT_DELAY);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  logger.error({ event: "request.failed", err: error }, "A request failed");
}
