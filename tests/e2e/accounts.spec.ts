import {
  PASSWORD,
  confirmEmail,
  expect,
  expectAccessible,
  fillSignup,
  linkFromEmail,
  logIn,
  logOut,
  newPerson,
  proveUnconfirmedAccount,
  signUpAndConfirm,
  test,
  visit,
} from "./support";

test("a new owner goes from the welcome screen to their setup page, then signs out and in", async ({
  page,
  jsEnabled,
}) => {
  const owner = newPerson("owner");
  await page.goto("/");
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByText("Trusted Sitters for happy pets.")).toBeVisible();
  // With JavaScript the splash moves on by itself after 2 s: axe checks it where it stays.
  if (!jsEnabled) await expectAccessible(page);
  await page.getByRole("link", { name: "Get started" }).click();
  await expect(page.getByRole("heading", { name: "Join Trusted Sitters" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: /Pet Owner/ }).click();
  await expect(page).toHaveURL(/mode=signup&role=owner/);
  await expect(page.getByRole("heading", { name: "Sign up as a Pet Owner" })).toBeVisible();
  await expectAccessible(page);
  await fillSignup(page, owner);
  await expect(page.getByText("We sent you a confirmation link")).toBeVisible();
  await expectAccessible(page);

  // Before confirming, signing in is refused with a way to get the link again.
  await logIn(page, owner.email, owner.password);
  await expect(page.getByText("Please confirm your email address before signing in.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send the link again" })).toBeVisible();
  await expectAccessible(page);

  await confirmEmail(page, owner, jsEnabled);
  await expect(page.getByRole("heading", { name: "Add your pet" })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("link", { name: "Discover" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectAccessible(page);

  await logOut(page);
  await visit(page, "/dashboard");
  await expect(page).toHaveURL(/\/auth\?mode=login&redirectTo=%2Fdashboard/);

  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password", { exact: true }).fill(owner.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
});

test("a sitter signs up through the walker link and lands on sitter setup", async ({ page, jsEnabled }) => {
  const sitter = newPerson("sitter");
  await visit(page, "/select-role");
  await page.getByRole("link", { name: /Sitter/ }).click();
  await expect(page).toHaveURL(/role=walker/);
  await expect(page.getByRole("heading", { name: "Sign up as a Sitter" })).toBeVisible();
  await fillSignup(page, sitter);
  await expect(page.getByText("We sent you a confirmation link")).toBeVisible();
  await confirmEmail(page, sitter, jsEnabled);
  await expect(page.getByRole("heading", { name: "Your sitter profile" })).toBeVisible();
  await visit(page, "/profile");
  await expect(page.getByText("You are using Trusted Sitters as: Sitter")).toBeVisible();
});

test("the sign-up back arrow returns to the role step, then home", async ({ page }) => {
  await visit(page, "/auth?mode=signup");
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await page.getByRole("link", { name: /Pet Owner/ }).click();
  await expect(page).toHaveURL(/role=owner/);
  await page.getByRole("link", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/auth\?mode=signup$/);
  await page.getByRole("link", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
});

test("sign-up errors are translated, tied to their fields, and keep what was typed but the password", async ({
  page,
}) => {
  await visit(page, "/auth?mode=signup&role=owner");
  await page.getByLabel("Full name").fill("Olga");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password", { exact: true }).fill("123");
  await page.getByRole("button", { name: "Sign Up" }).click();

  const email = page.getByLabel("Email");
  await expect(email).toHaveAttribute("aria-invalid", "true");
  const errorId = (await email.getAttribute("aria-describedby"))!.split(" ")[0]!;
  await expect(page.locator(`[id="${errorId}"]`)).toHaveText("Invalid email address.");
  await expect(page.getByText("Password must be at least 6 characters long")).toBeVisible();
  await expect(page.getByLabel("City")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Full name")).toHaveValue("Olga");
  await expectAccessible(page);

  // A common password and a taken email are refused by the server.
  const person = newPerson();
  await page.getByLabel("City").fill("Madrid");
  await page.getByLabel("Postal code").fill("28004");
  await page.getByLabel("Phone").fill("+34 600 123 456");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password", { exact: true }).fill("password123");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("This password is too common")).toBeVisible();
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
  await expect(page.getByLabel("Email")).toHaveValue(person.email);
});

test("an email can only have one account, and sign-up does not tell whether an address is taken", async ({
  page,
  browser,
  jsEnabled,
}) => {
  const person = newPerson();
  await page.goto("/auth?mode=signup&role=owner");
  await fillSignup(page, person);
  await expect(page.getByText("We sent you a confirmation link")).toBeVisible();
  const newcomerUrl = page.url();

  // Someone else, in another browser, tries the same address: the very same answer.
  const stranger = await browser.newContext({ javaScriptEnabled: jsEnabled });
  const strangerPage = await stranger.newPage();
  await strangerPage.goto("/auth?mode=signup&role=owner");
  await fillSignup(strangerPage, {
    ...person,
    name: "Mallory",
    email: person.email.toUpperCase(),
    password: "another-secret-77",
  });
  await expect(strangerPage.getByText("We sent you a confirmation link")).toBeVisible();
  await expect(strangerPage.getByText("This email is already registered.")).toHaveCount(0);
  expect(strangerPage.url()).toBe(newcomerUrl);
  // Nor does the outbox: both browsers see one waiting entry for the address they typed, and no email.
  for (const outbox of [strangerPage, page]) {
    await outbox.goto("/dev/outbox");
    await expect(outbox.getByTestId("outbox-waiting")).toHaveCount(1);
    await expect(outbox.getByTestId("outbox-waiting")).toContainText(person.email);
    await expect(outbox.getByTestId("email-to")).toHaveCount(0);
  }
  await expectAccessible(page);
  await stranger.close();

  // The owner, once this browser gives the password, is told, with a way to sign in and to choose a new password, and still has one account.
  await proveUnconfirmedAccount(page, person);
  const notice = page.getByRole("article").filter({ hasText: "Someone tried to sign up with your email" });
  await page.goto("/dev/outbox");
  await expect(notice).toHaveCount(1);
  await expect(notice.getByRole("link").filter({ hasText: "/forgot-password" })).toHaveCount(1);
  await confirmEmail(page, person, jsEnabled);
  await logOut(page);
  await logIn(page, person.email, "another-secret-77");
  await expect(page.getByText("Invalid login credentials")).toBeVisible();
  await logIn(page, person.email, person.password);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("changing the password from a session needs the current one", async ({ page, jsEnabled }) => {
  const owner = newPerson();
  await signUpAndConfirm(page, owner, jsEnabled);
  await visit(page, "/profile/edit");
  await page.getByRole("link", { name: "Change password" }).click();
  const current = page.getByLabel("Current password");
  await current.fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill("a-fresh-secret-9");
  await page.getByLabel("Confirm new password").fill("a-fresh-secret-9");
  await page.getByRole("button", { name: "Update password" }).click();
  // The error belongs to the field, and nothing changed.
  await expect(current).toHaveAttribute("aria-invalid", "true");
  const errorId = (await current.getAttribute("aria-describedby"))!.split(" ")[0]!;
  await expect(page.locator(`[id="${errorId}"]`)).toHaveText("The current password is wrong");
  await expect(current).toHaveValue("");
  await expectAccessible(page);

  await current.fill(owner.password);
  await page.getByLabel("New password", { exact: true }).fill("a-fresh-secret-9");
  await page.getByLabel("Confirm new password").fill("a-fresh-secret-9");
  await page.getByRole("button", { name: "Update password" }).click();
  await expect(page.getByText("Your password has been updated.")).toBeVisible();

  await logOut(page);
  await logIn(page, owner.email, owner.password);
  await expect(page.getByText("Invalid login credentials")).toBeVisible();
  await logIn(page, owner.email, "a-fresh-secret-9");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("after five wrong passwords for an account, the next try has to wait, even with the right password", async ({
  page,
  jsEnabled,
}) => {
  const owner = newPerson();
  await signUpAndConfirm(page, owner, jsEnabled);
  await logOut(page);
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    await logIn(page, owner.email, `wrong-guess-${attempt}`);
    await expect(page.getByRole("alert").getByText("Invalid login credentials")).toBeVisible();
  }
  // The test server waits a minute after the free failures (tests/e2e/start-server.js), so this is inside the wait.
  await logIn(page, owner.email, owner.password);
  await expect(
    page.getByRole("alert").getByText("Too many failed attempts for this account. Please wait a moment and try again."),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
  await expectAccessible(page);
});

test("a wrong password is refused without saying whether the email exists", async ({ page, jsEnabled }) => {
  const owner = newPerson();
  await signUpAndConfirm(page, owner, jsEnabled);
  await logOut(page);
  await logIn(page, owner.email, "not-the-password");
  await expect(page.getByRole("alert").getByText("Invalid login credentials")).toBeVisible();
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
  await expectAccessible(page);
  await logIn(page, "nobody-here@example.com", "not-the-password");
  await expect(page.getByRole("alert").getByText("Invalid login credentials")).toBeVisible();
});

test("forgot and reset password: the link works once, ends other sessions, and the old password stops working", async ({
  page,
  browser,
  jsEnabled,
}) => {
  const owner = newPerson();
  await signUpAndConfirm(page, owner, jsEnabled);

  // A second device stays signed in until the reset.
  const other = await browser.newContext({ javaScriptEnabled: jsEnabled });
  const otherPage = await other.newPage();
  await logIn(otherPage, owner.email, owner.password);
  await expect(otherPage).toHaveURL(/\/dashboard$/);

  await logOut(page);
  await visit(page, "/forgot-password");
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText("Please enter your email address first")).toBeVisible();
  await page.getByLabel("Email").fill(owner.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText("If an account exists for that address")).toBeVisible();
  await expectAccessible(page);

  const link = await linkFromEmail(page, owner.email, "/reset-password");
  await visit(page, link);
  await page.getByLabel("New password", { exact: true }).fill("a-fresh-secret-9");
  await page.getByLabel("Confirm new password").fill("a-different-one-9");
  await page.getByRole("button", { name: "Update password" }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("a-fresh-secret-9");
  await page.getByLabel("Confirm new password").fill("a-fresh-secret-9");
  await page.getByRole("button", { name: "Update password" }).click();
  await expect(page.getByText("Your password has been updated.")).toBeVisible();
  await expectAccessible(page);

  // The other device was signed out.
  await otherPage.goto("/dashboard");
  await expect(otherPage).toHaveURL(/\/auth\?mode=login/);
  await other.close();

  // The link is single use.
  await page.goto(link);
  await expect(page.getByText("This reset link is invalid or has already been used.")).toBeVisible();

  await logOut(page);
  await logIn(page, owner.email, owner.password);
  await expect(page.getByText("Invalid login credentials")).toBeVisible();
  await logIn(page, owner.email, "a-fresh-secret-9");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("the reset page without a link or a session sends you to sign in with an explanation", async ({ page }) => {
  await page.goto("/reset-password");
  await expect(page).toHaveURL(/\/auth\?mode=login/);
  await expect(page.getByText("No valid reset session.")).toBeVisible();
  await page.goto("/auth/reset-password?token=made-up");
  await expect(page.getByText("This reset link is invalid or has already been used.")).toBeVisible();
});

test("a used or broken confirmation link explains itself", async ({ page, jsEnabled }) => {
  // With JavaScript an error page goes home after 3 s: the message is read first, and axe checks it where it stays.
  await page.goto("/auth/callback?type=signup&token=not-a-real-token");
  await expect(page.getByText("This link is invalid or has already been used.")).toBeVisible();
  if (!jsEnabled) await expectAccessible(page);
  await page.goto("/auth/callback?error=access_denied&error_description=Email+link+is+invalid+or+has+expired");
  await expect(page.getByText("The confirmation link has expired.")).toBeVisible();
  await page.goto("/auth/callback?error=access_denied&error_description=nope");
  await expect(page.getByText("Access denied.")).toBeVisible();
  // End on a page that stays, for the closing accessibility check.
  await page.goto("/auth?mode=login");
});

test("signed-out visitors cannot reach protected pages", async ({ page }) => {
  for (const path of [
    "/dashboard",
    "/messages",
    "/bookings",
    "/notifications",
    "/profile",
    "/pet-profile-setup",
    "/sitter-profile-setup",
  ]) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`/auth\\?mode=login&redirectTo=${encodeURIComponent(path)}$`));
  }
  await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
});

test("unknown addresses show the friendly 404 page", async ({ page }) => {
  const response = await visit(page, "/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
});

test("a form posted from another site is refused", async ({ request }) => {
  const response = await request.post("/auth?mode=login", {
    headers: { Origin: "https://evil.example" },
    form: { intent: "login", email: "a@b.co", password: PASSWORD },
  });
  expect(response.status()).toBe(403);
});
