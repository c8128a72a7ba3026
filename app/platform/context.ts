declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    clientAddress: string;
    /**
     * Resolves once the client's connection can take more (false when it has gone): Remix's
     * adapter writes a streamed body without waiting, so a large file paces itself with this.
     */
    whenWritable?: () => Promise<boolean>;
  }
}

export {};
