// Read by server.js (http-limits.server.ts) and again by the app (forms.server.ts); here so that a route
// module's `handle` can name them without importing server code.

// Our largest field is a 2,000-character message: at most ~24 KB once encoded.
export const FORM_BODY_MAX_BYTES = 64 * 1024;

export const STRIPE_WEBHOOK_BODY_MAX_BYTES = 1024 * 1024;

export interface RequestBodyHandle {
  uploads?: true;
  bodyMaxBytes?: number;
}
