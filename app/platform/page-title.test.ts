import type { RouteConfigEntry } from "@remix-run/route-config";
import { createInstance, type i18n } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import { i18nConfig, namespaces, supportedLanguages, type Language } from "./i18n";
import { resources } from "./i18n.server";
import { documentTitle, SITE_NAME, titleFrom, type PageTitle } from "./page-title";

/** Pages that deliberately carry only the site's name, and why. */
const SITE_NAME_ONLY: Record<string, string> = {
  "routes/welcome.tsx": "the splash, whose heading is the site's name",
};

const instances = {} as Record<Language, i18n>;
beforeAll(async () => {
  for (const language of supportedLanguages) {
    instances[language] = createInstance();
    await instances[language].init({ ...i18nConfig, lng: language, ns: namespaces, resources });
  }
});

describe("the document title", () => {
  const bookName = titleFrom<() => { sitter: { name: string } }>(({ sitter }, t) =>
    t("bookings:request.title", { name: sitter.name }),
  );

  it("is the deepest page's own, translated, then the site's name", () => {
    const matches = [
      { handle: { i18n: ["common"] } },
      { handle: { title: "bookings:list.title" } },
      { handle: { title: "messages:title" } },
    ];
    expect(documentTitle(matches, instances.en.t)).toBe("Messages · Trusted Sitters");
    expect(documentTitle(matches, instances.es.t)).toBe("Mensajes · Trusted Sitters");
    expect(documentTitle(matches.slice(0, 2), instances.de.t)).toBe("Meine Buchungen · Trusted Sitters");
  });

  it("names the legal pages in the reader's language, from the translations every page loads", () => {
    expect(documentTitle([{ handle: { title: "legal:titles.imprint" } }], instances.de.t)).toBe(
      "Impressum · Trusted Sitters",
    );
    expect(documentTitle([{ handle: { title: "legal:titles.privacy" } }], instances.es.t)).toBe(
      "Política de privacidad · Trusted Sitters",
    );
    expect(documentTitle([{ handle: { title: "legal:titles.terms" } }], instances.fr.t)).toBe(
      "Conditions d'utilisation · Trusted Sitters",
    );
  });

  it("can be made from the page's data", () => {
    expect(documentTitle([{ handle: { title: bookName }, data: { sitter: { name: "Ana" } } }], instances.en.t)).toBe(
      "Book Ana · Trusted Sitters",
    );
  });

  it("falls back to the page above, then to the site's name, when a page has none or its loader failed", () => {
    expect(
      documentTitle(
        [{ handle: { title: "bookings:list.title" } }, { handle: { title: bookName }, data: undefined }],
        instances.en.t,
      ),
    ).toBe("My Bookings · Trusted Sitters");
    expect(documentTitle([{ handle: { i18n: ["common"] } }, { handle: undefined }], instances.en.t)).toBe(SITE_NAME);
  });
});

function pageFiles(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) =>
    entry.children?.length ? [entry.file, ...pageFiles(entry.children)] : [entry.file],
  );
}

describe("every page in app/routes.ts", () => {
  it("names itself in its handle with a title that exists in every language", async () => {
    const problems: string[] = [];
    const titled: string[] = [];
    for (const file of [...new Set(pageFiles(routes))]) {
      const module = (await import(/* @vite-ignore */ `../${file}`)) as {
        default?: unknown;
        handle?: { title?: PageTitle };
      };
      const isPage = typeof module.default === "function" && !file.endsWith("layout.tsx");
      if (!isPage) continue;
      const title = module.handle?.title;
      if (file in SITE_NAME_ONLY) {
        if (title !== undefined) problems.push(`${file}: listed as the site's name only, but has a title`);
        continue;
      }
      if (title === undefined) problems.push(`${file}: no handle.title`);
      else if (typeof title === "string") {
        if (!title.includes(":")) problems.push(`${file}: "${title}" should name its namespace`);
        for (const language of supportedLanguages)
          if (!instances[language].exists(title)) problems.push(`${file}: "${title}" missing in ${language}`);
      } else if (title(undefined, instances.en.t) !== null)
        problems.push(`${file}: a title from data must give way when the loader failed`);
      titled.push(file);
    }
    expect(problems).toEqual([]);
    expect(titled).toEqual(
      expect.arrayContaining([
        "routes/messages.tsx",
        "routes/booking-request.tsx",
        "routes/select-role.tsx",
        "routes/not-found.tsx",
      ]),
    );
    expect(titled).toEqual(
      expect.arrayContaining([
        "routes/terms.tsx",
        "routes/privacy.tsx",
        "routes/cookies.tsx",
        "routes/imprint.tsx",
        "routes/help.tsx",
      ]),
    );
  });
});

describe("the title of a page that answers with an error", () => {
  /**
   * The app's shape in small: a root whose layout renders the title, a layout with its own error
   * boundary (as /admin and the member pages have), and a page whose loader answers 404.
   */
  async function titleAt(path: string, status: number, language: Language = "en") {
    const { createElement, Fragment } = await import("react");
    const { renderToStaticMarkup } = await import("react-dom/server");
    const { createMemoryRouter, Outlet, RouterProvider } = await import("react-router-dom");
    const { I18nextProvider } = await import("react-i18next");
    const { useDocumentTitle } = await import("./ui/document-title");
    function Title() {
      return createElement("title", null, useDocumentTitle());
    }
    const refuse = () => {
      throw new Response("Not found", { status });
    };
    const router = createMemoryRouter(
      [
        {
          id: "root",
          path: "/",
          handle: { i18n: ["common"] },
          element: createElement(Fragment, null, createElement(Title), createElement(Outlet)),
          errorElement: createElement(Title),
          children: [
            {
              id: "console",
              path: "admin",
              handle: { title: "admin:title" },
              element: createElement(Outlet),
              errorElement: createElement("p", null, "refused"),
              children: [
                {
                  id: "overview",
                  index: true,
                  handle: { title: "admin:overview.title" },
                  loader: refuse,
                  element: createElement("p"),
                },
                {
                  id: "audit",
                  path: "audit",
                  handle: { title: "admin:audit.title" },
                  loader: refuse,
                  element: createElement("p"),
                },
              ],
            },
            {
              id: "visit",
              path: "bookings/:id/visit",
              handle: { title: "care:visit.title" },
              loader: refuse,
              element: createElement("p"),
              errorElement: createElement("p", null, "refused"),
            },
          ],
        },
      ],
      { initialEntries: [path] },
    );
    await new Promise<void>((resolve) =>
      router.state.initialized ? resolve() : router.subscribe((state) => state.initialized && resolve()),
    );
    const markup = renderToStaticMarkup(
      createElement(I18nextProvider, { i18n: instances[language] }, createElement(RouterProvider, { router })),
    );
    router.dispose();
    return /<title>(.*?)<\/title>/.exec(markup)?.[1];
  }

  it("is the not-found page's own for every 404, whichever boundary shows it, in the reader's language", async () => {
    expect(await titleAt("/admin", 404)).toBe(`${instances.en.t("common:notFound.title")} · ${SITE_NAME}`);
    expect(await titleAt("/admin/audit", 404)).toBe(`${instances.en.t("common:notFound.title")} · ${SITE_NAME}`);
    expect(await titleAt("/bookings/b1/visit", 404)).toBe(`${instances.en.t("common:notFound.title")} · ${SITE_NAME}`);
    expect(await titleAt("/admin", 404, "de")).toBe(`${instances.de.t("common:notFound.title")} · ${SITE_NAME}`);
    for (const path of ["/admin", "/admin/audit", "/bookings/b1/visit"]) {
      const title = (await titleAt(path, 404))!;
      for (const hidden of ["admin:title", "admin:overview.title", "admin:audit.title", "care:visit.title"])
        expect(title).not.toContain(instances.en.t(hidden));
    }
  });

  it("names the error for other statuses too", async () => {
    expect(await titleAt("/admin", 403)).toBe(`${instances.en.t("common:errors.forbiddenTitle")} · ${SITE_NAME}`);
  });
});
