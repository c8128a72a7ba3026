import { AsyncLocalStorage } from "node:async_hooks";
import type { AppLoadContext } from "@remix-run/node";

// The load context of the request being answered, reachable from code that is handed only the
// request (such as getUser), so that work every loader of a page repeats is done once per request.
const current = new AsyncLocalStorage<AppLoadContext>();

export function createLoadContext(
  context: Pick<AppLoadContext, "cspNonce" | "clientAddress" | "whenWritable">,
): AppLoadContext {
  return { ...context, memo: new Map() };
}

/** Runs the request's handler with its load context as the current one. */
export function runWithLoadContext<T>(context: AppLoadContext, handle: () => T): T {
  return current.run(context, handle);
}

/**
 * The value `make` gives for `key`, made once per request and shared by all its loaders. Only reading
 * requests share: an action may change what a later loader of the same request must read again.
 * Outside a request (unit tests, jobs) every call makes its own.
 */
export function oncePerRequest<T>(request: Request, key: string, make: () => Promise<T>): Promise<T> {
  const memo = request.method === "GET" || request.method === "HEAD" ? current.getStore()?.memo : undefined;
  if (!memo) return make();
  let value = memo.get(key) as Promise<T> | undefined;
  if (!value) {
    value = make();
    memo.set(key, value);
  }
  return value;
}
