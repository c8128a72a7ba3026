import { matchPath, matchRoutes } from "@remix-run/router";
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

  it("sees a new route tree, not a cached one", () => {
    const other = [{ id: "only", path: "users/:userId" }];
    expect(matchRoutes(other, "/users/abc")?.map((match) => match.route.id)).toEqual(["only"]);
    expect(matchRoutes(routes, "/users/abc")?.map((match) => match.route.id)).toEqual(["root", "users"]);
  });
});
