import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";

type RouteNode = { id: string; path?: string; caseSensitive?: boolean } & (
  { index: true } | { index?: false; children: RouteNode[] }
);

/** A route that answers an address, outermost first: its id and its part of the pattern. */
export interface RouteMatch {
  id: string;
  path: string | undefined;
}

/** Addresses whose matches are kept, and the longest one kept: a few pages make most requests. */
const KEPT_PATHS = 2000;
const LONGEST_KEPT_PATH = 200;

/**
 * The path Remix matches for a request's address: a `.data` suffix is a JavaScript request for the route
 * without it (`/_root.data` for `/`). Null for an address that is no URL path.
 */
export function remixPathOf(url: string): string | null {
  let pathname: string;
  try {
    // As the Remix adapter builds it, so the same route matches.
    pathname = new URL(`http://localhost${url}`).pathname;
  } catch {
    return null;
  }
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length).replace(/^\/_root$/, "/") : pathname;
}

/**
 * The app's routes that answer a path, as Remix matches them: what the request log, the metrics and the
 * body limits ask before Remix runs. Remix 2's router flattens, ranks and compiles every route again on
 * each match, so the answers for recent paths are kept (the same route table always gives the same answer).
 */
export function routeMatcher(routes: ServerBuild["routes"]): (path: string) => readonly RouteMatch[] | null {
  const nodesUnder = (parentId: string | undefined): RouteNode[] =>
    Object.values(routes)
      .filter((route) => route?.parentId === parentId)
      .map((route) => route!)
      .map((route): RouteNode =>
        route.index
          ? { id: route.id, path: route.path, caseSensitive: route.caseSensitive, index: true }
          : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: nodesUnder(route.id) },
      );
  const tree = nodesUnder(undefined);
  const kept = new Map<string, readonly RouteMatch[] | null>();
  return (path) => {
    const known = kept.get(path);
    if (known !== undefined) return known;
    const matches = matchRoutes(tree, path)?.map(({ route }) => ({ id: route.id, path: route.path })) ?? null;
    if (path.length <= LONGEST_KEPT_PATH) {
      if (kept.size >= KEPT_PATHS) kept.delete(kept.keys().next().value!);
      kept.set(path, matches);
    }
    return matches;
  };
}
