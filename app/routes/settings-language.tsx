import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { saveLanguage } from "~/features/auth/index.server";
import { formDataOf } from "~/platform/forms.server";
import { isLanguage } from "~/platform/i18n";
import { languageCookie } from "~/platform/i18n.server";
import { safeRedirectTarget } from "~/platform/redirect.server";
import { getUser } from "~/platform/session.server";

export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  const formData = await formDataOf(request);
  const language = formData.get("language");
  const back = safeRedirectTarget(formData.get("redirectTo"), "/");
  // A ?lng= in the page's address would win over the new cookie, so it is dropped.
  const target = new URL(back, "http://local");
  target.searchParams.delete("lng");
  const destination = `${target.pathname}${target.search}`;
  if (!isLanguage(language)) return redirect(destination);
  const user = await getUser(request);
  if (user) await saveLanguage(user.id, language);
  return redirect(destination, { headers: { "Set-Cookie": await languageCookie.serialize(language) } });
}
