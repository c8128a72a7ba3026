declare module "@remix-run/node" {
  interface AppLoadContext {
    cspNonce: string;
    clientAddress: string;
  }
}

export {};
