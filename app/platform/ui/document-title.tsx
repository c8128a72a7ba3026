import { useContext } from "react";
import { useTranslation } from "react-i18next";
import { useMatches, UNSAFE_DataRouterStateContext } from "react-router-dom";
import { documentTitle, withSiteName } from "~/platform/page-title";
import { errorTitleKey } from "./not-found";

/**
 * The document's title: the deepest page's own, or, when any error boundary shows (the root's or a
 * layout's), that error's title. A 404 thus names nothing of the route it hides ("Overview" for a
 * member asking /admin, "Visit" for someone else's booking). useRouteError sees only the boundary of
 * the route that calls it, so the errors come from the router's state, where Remix's <Meta> reads them too.
 */
export function useDocumentTitle(): string {
  const { t } = useTranslation();
  const matches = useMatches();
  const errors = useContext(UNSAFE_DataRouterStateContext)?.errors;
  const shown = errors ? Object.values(errors)[0] : undefined;
  return shown === undefined ? documentTitle(matches, t) : withSiteName(t(errorTitleKey(shown)));
}
