/**
 * How much of a request body the server reads, before any route sees it (http-limits.server.ts in
 * server.js) and again where the app reads it (forms.server.ts). Named here so a route module's
 * `handle` can refer to them without importing server code.
 */

/** A form post. Our largest form field is a 2,000-character message: at most ~24 KB once encoded. */
export const FORM_BODY_MAX_BYTES = 64 * 1024;

/** Stripe's webhook events; a few KB each, the largest well under this. */
export const STRIPE_WEBHOOK_BODY_MAX_BYTES = 1024 * 1024;

/** What a route module declares in `handle` about the bodies it reads. */
export interface RequestBodyHandle {
  /** Multipart posts here are uploads: readImageUpload reads them, with limits of its own. */
  uploads?: true;
  /** The most any other body may have; FORM_BODY_MAX_BYTES when not given. */
  bodyMaxBytes?: number;
}
