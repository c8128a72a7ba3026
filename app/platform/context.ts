/** What the Express server hands to every loader and action. */
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Fresh for each request; every inline script carries it (Content-Security-Policy). */
    cspNonce: string;
    /** The client's address for rate limits: Fly-Client-IP on Fly, else the socket address. */
    clientAddress: string;
  }
}

export {};
