import { createContext, useContext } from "react";

/** The request's CSP nonce, given to every inline script React renders (empty in the browser). */
export const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
