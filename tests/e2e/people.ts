import type { APIRequestContext, Page } from "@playwright/test";
import { upload } from "./images";
import { expect, logIn, logOut, newPerson, signUpAndConfirm, type Person } from "./support";

// People for tests about something else: set up through the same routes and fields as the setup
// screens, without drawing each step (the screens themselves are tested in profiles.spec.ts).

export async function sitterIn(
  page: Page,
  jsEnabled: boolean,
  {
    name,
    city,
    rate = 15,
    caresFor = ["Dogs"],
    years,
  }: { name: string; city: string; rate?: number; caresFor?: ("Dogs" | "Cats")[]; years?: number },
): Promise<Person> {
  const sitter = newPerson("sitter", { name, city });
  await signUpAndConfirm(page, sitter, jsEnabled);
  const form = new FormData();
  form.set("bio", `${name} walks and sits pets around ${city}.`);
  form.set("hourlyRate", String(rate));
  form.set("yearsExperience", years === undefined ? "" : String(years));
  for (const kind of caresFor) form.append("caresFor", kind === "Dogs" ? "dog" : "cat");
  form.append("photos", await photo(`${name}.jpg`));
  await postForm(page, "/sitter-profile-setup", form, "/profile/edit");
  await postForm(page, "/logout", new FormData(), "/auth?mode=login");
  await page.goto("/auth?mode=login");
  return sitter;
}

export async function ownerWithDog(
  page: Page,
  jsEnabled: boolean,
  { name, city, dog }: { name: string; city: string; dog: string },
): Promise<Person> {
  const owner = newPerson("owner", { name, city });
  await signUpAndConfirm(page, owner, jsEnabled);
  const form = new FormData();
  form.set("petType", "dog");
  form.set("name", dog);
  form.set("age", "3 years");
  form.set("energyLevel", "medium");
  form.append("photos", await photo(`${dog}.jpg`, "jpeg", 60));
  await postForm(page, "/pet-profile-setup", form, "/profile");
  await page.goto("/profile");
  await expect(page.getByText(dog).first()).toBeVisible();
  return owner;
}

async function photo(name: string, format: "png" | "jpeg" = "jpeg", hue = 30): Promise<File> {
  const { buffer, mimeType } = await upload(name, format, hue);
  return new File([new Uint8Array(buffer)], name, { type: mimeType });
}

/** Posts a form as the page's browser would (its cookies, its origin) and expects the redirect a person would follow. */
async function postForm(page: Page, path: string, form: FormData, redirectsTo: string) {
  const request = page.context().request;
  const origin = new URL(page.url()).origin;
  const response = await request.post(path, { multipart: form, headers: { Origin: origin }, maxRedirects: 0 });
  expect(`${response.status()} ${response.headers()["location"]}`, `${path} accepts the form`).toBe(
    `302 ${redirectsTo}`,
  );
}

// The sitters here live in Europe.
export async function dayAhead(request: APIRequestContext, days: number): Promise<string> {
  const { now } = (await (await request.get("/dev/clock")).json()) as { now: string };
  return new Date(new Date(now).getTime() + days * 24 * 3600_000).toISOString().slice(0, 10);
}

export async function sitterAvailableOn(
  page: Page,
  jsEnabled: boolean,
  day: string,
  details: { name: string; city: string; rate?: number },
): Promise<Person> {
  const sitter = await sitterIn(page, jsEnabled, details);
  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await page.goto(`/availability?date=${day}`);
  if (!(await page.getByLabel("Start time").isVisible()))
    await page.locator("summary", { hasText: "Add Availability Slot" }).click();
  await page.getByRole("button", { name: "Full Day (9-5)" }).click();
  await expect(page.getByText("Availability slot added")).toBeVisible();
  await logOut(page);
  return sitter;
}

/** The server's time (moved by /dev/clock in tests), as an ISO string. */
export async function serverNow(request: APIRequestContext): Promise<string> {
  return ((await (await request.get("/dev/clock")).json()) as { now: string }).now;
}

/** Someone signed up and confirmed, then signed out again, ready to sign in where the test needs them. */
export async function signedUp(page: Page, jsEnabled: boolean, role: Person["role"], name: string): Promise<Person> {
  const person = newPerson(role, { name });
  await signUpAndConfirm(page, person, jsEnabled);
  await logOut(page);
  return person;
}

/** Signs in and waits until the sign-in page is left. */
export async function signIn(page: Page, person: Person) {
  await logIn(page, person.email, person.password);
  await page.waitForURL((url) => !url.pathname.startsWith("/auth"));
}
