/** What the Express server hands to every loader and action. */
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Fresh for each request; every inline script carries it (Content-Security-Policy). */
    cspNonce: string;
    /** Who the client is for rate limits: an IPv4 address or an IPv6 /64, from a trusted proxy's header or the socket (client-address.server.ts). */
    clientAddress: string;
  }
}

export {};
