import { createRequire } from "node:module";
import { matchPath, matchRoutes } from "@remix-run/router";
import type * as StaticRouting from "react-router-dom/server";
import { describe, expect, it } from "vitest";

// patches/@remix-run+router: compiled paths and ranked route trees are cached; answers must not change.
describe("route matching with cached compiled paths", () => {
  const routes = [
    {
      id: "root",
      path: "",
      children: [
        { id: "users", path: "users/:userId" },
        { id: "edit", path: "pet/:petId/edit" },
        { id: "lang", path: "locales/:lng/:ns" },
        { id: "optional", path: "files/:name?" },
        { id: "splat", path: "*" },
      ],
    },
  ];

  it("gives each request its own params, however often the same pattern is matched", () => {
    for (let i = 0; i < 3; i += 1) {
      const one = matchRoutes(routes, "/users/abc");
      const two = matchRoutes(routes, "/users/xyz");
      expect(one?.at(-1)?.params).toEqual({ userId: "abc" });
      expect(two?.at(-1)?.params).toEqual({ userId: "xyz" });
      expect(matchRoutes(routes, "/pet/p1/edit")?.at(-1)?.route.id).toBe("edit");
      expect(matchRoutes(routes, "/locales/es/common")?.at(-1)?.params).toEqual({ lng: "es", ns: "common" });
      expect(matchRoutes(routes, "/files")?.at(-1)?.route.id).toBe("optional");
      expect(matchRoutes(routes, "/nowhere/at/all")?.at(-1)?.params).toEqual({ "*": "nowhere/at/all" });
    }
  });

  it("keeps case sensitivity and end matching apart for the same path", () => {
    expect(matchPath({ path: "/Dashboard", caseSensitive: true, end: true }, "/dashboard")).toBeNull();
    expect(matchPath({ path: "/Dashboard", caseSensitive: false, end: true }, "/dashboard")).not.toBeNull();
    expect(matchPath({ path: "/dashboard", end: true }, "/dashboard/likes")).toBeNull();
    expect(matchPath({ path: "/dashboard", end: false }, "/dashboard/likes")?.pathnameBase).toBe("/dashboard");
  });

  it("hands out copies of a remembered answer: changing one caller's params changes no one else's", () => {
    const first = matchRoutes(routes, "/users/kept")!;
    (first.at(-1)!.params as Record<string, string>).userId = "changed";
    first.pop();
    const again = matchRoutes(routes, "/users/kept")!;
    expect(again.map((match) => [match.route.id, match.params])).toEqual([
      ["root", { userId: "kept" }],
      ["users", { userId: "kept" }],
    ]);
    // As without the cache, the matches of one branch share one params object.
    expect(again[0]!.params).toBe(again[1]!.params);
    expect(matchRoutes(routes, "/users/kept")).not.toBe(again);
    expect(matchRoutes(routes, "/nowhere")?.at(-1)?.route.id).toBe("splat");
  });

  it("answers long paths and many different paths the same as short ones", () => {
    const long = `/users/${"x".repeat(5000)}`;
    expect(matchRoutes(routes, long)?.at(-1)?.params.userId).toHaveLength(5000);
    for (let i = 0; i < 2500; i += 1)
      expect(matchRoutes(routes, `/users/u${i}`)?.at(-1)?.params).toEqual({ userId: `u${i}` });
    expect(matchRoutes(routes, "/users/u0")?.at(-1)?.params).toEqual({ userId: "u0" });
  });

  it("sees a new route tree, not a cached one", () => {
    const other = [{ id: "only", path: "users/:userId" }];
    expect(matchRoutes(other, "/users/abc")?.map((match) => match.route.id)).toEqual(["only"]);
    expect(matchRoutes(routes, "/users/abc")?.map((match) => match.route.id)).toEqual(["root", "users"]);
  });
});

// patches/react-router-dom, @remix-run/react, @remix-run/server-runtime: what a page's render makes from the
// build's routes (route modules, route tree, data routes) is made once and shared by every request.
describe("the static router of each page render", () => {
  // As @remix-run/react's server render loads it.
  const { createStaticHandler, createStaticRouter } = createRequire(import.meta.url)(
    "react-router-dom/server",
  ) as typeof StaticRouting;
  const routes = [
    {
      id: "root",
      path: "/",
      loader: () => "root",
      children: [
        { id: "user", path: "users/:userId", loader: () => "user" },
        { id: "index", index: true, loader: () => "index" },
      ],
    },
  ];

  it("shares the data routes of one tree, but shows each request its own location, matches, params and data", async () => {
    const handler = createStaticHandler(routes);
    const one = await handler.query(new Request("http://localhost/users/abc"));
    const two = await handler.query(new Request("http://localhost/"));
    if (one instanceof Response || two instanceof Response) throw new Error("not a render context");
    const first = createStaticRouter(handler.dataRoutes, one);
    const second = createStaticRouter(handler.dataRoutes, two);
    expect(second.routes).toBe(first.routes);
    expect(first.state.location.pathname).toBe("/users/abc");
    expect(first.state.matches.map((match) => [match.route.id, match.params])).toEqual([
      ["root", { userId: "abc" }],
      ["user", { userId: "abc" }],
    ]);
    expect(first.state.loaderData).toEqual({ root: "root", user: "user" });
    expect(second.state.location.pathname).toBe("/");
    expect(second.state.matches.map((match) => match.route.id)).toEqual(["root", "index"]);
    expect(second.state.loaderData).toEqual({ root: "root", index: "index" });
    // A matched route is the data route the router renders, with its element.
    expect(first.state.matches[1]?.route).toBe(first.routes[0]?.children?.[0]);
  });

  it("makes new data routes for another tree", () => {
    const handler = createStaticHandler(routes);
    const other = createStaticHandler([{ id: "only", path: "/" }]);
    const context = {
      basename: "",
      location: { pathname: "/", search: "", hash: "", state: null, key: "default" },
      matches: [],
      loaderData: {},
      actionData: null,
      errors: null,
      statusCode: 200,
      loaderHeaders: {},
      actionHeaders: {},
      activeDeferreds: null,
    };
    expect(createStaticRouter(other.dataRoutes, context).routes).not.toBe(
      createStaticRouter(handler.dataRoutes, context).routes,
    );
    expect(createStaticRouter(other.dataRoutes, context).routes.map((route) => route.id)).toEqual(["only"]);
  });
});
