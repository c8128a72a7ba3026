declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    clientAddress: string;
    /** What a request works out once and its loaders share (see request-context.server.ts). */
    memo?: Map<string, unknown>;
  }
}

export {};
