import { randomUUID } from "node:crypto";
import type { World } from "./world";

export type Who = "owner" | "sitter" | "both" | "admin" | "anonymous";
export type Fields = [string, string | File][];
export type Encoding = "urlencoded" | "multipart";

/** One form of the app: how a valid submission of it is made, by whom and where it goes. */
export interface Form {
  /** What the form is, in the failure message. */
  name: string;
  who: Who;
  url: (w: World) => string;
  params?: (w: World) => Record<string, string>;
  /** A valid submission (fresh ids each time, so a valid post can succeed more than once). */
  fields: (w: World) => Fields;
  /** How the page posts it. */
  encoding?: Encoding;
  headers?: (w: World) => Record<string, string>;
  /** Its error toast reports the device's problem, not a refusal: the state change is the point. */
  errorToastIsOutcome?: true;
}

/** The forms of some route modules, by route file (as app/routes.ts names it). */
export type Forms = Record<string, Form[]>;

export const PASSWORD = "correct horse battery";
export const pushEndpoint = () => `https://fcm.googleapis.com/fcm/send/${randomUUID()}`;
