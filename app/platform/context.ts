declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    clientAddress: string;
    /** What a request works out once and its loaders share (see request-context.server.ts). */
    memo?: Map<string, unknown>;
    /**
     * Resolves once the client's connection can take more (false when it has gone): Remix's
     * adapter writes a streamed body without waiting, so a large file paces itself with this.
     */
    whenWritable?: () => Promise<boolean>;
  }
}

export {};
