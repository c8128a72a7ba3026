import { expect, newPerson, signUpAndConfirm, test } from "./support";

// The token tests/e2e/start-server.js gives the server.
const TOKEN = process.env.METRICS_TOKEN ?? "e2e-metrics-token-0123456789";

test("a signed-in page view moves the request counter of its route; /metrics needs the token", async ({
  page,
  request,
  jsEnabled,
}) => {
  expect((await request.get("/metrics")).status()).toBe(404);
  expect(
    (await request.get("/metrics", { headers: { Authorization: "Bearer wrong-token-0123456789" } })).status(),
  ).toBe(404);
  const scrape = async () => {
    const answer = await request.get("/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(answer.status()).toBe(200);
    return answer.text();
  };
  const viewsOfProfile = (text: string) =>
    [...text.matchAll(/^trusted_sitters_http_requests_total\{route="\/profile",method="GET",[^}]*\} (\d+)$/gm)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );

  const person = newPerson("owner");
  await signUpAndConfirm(page, person, jsEnabled);
  const before = viewsOfProfile(await scrape());
  const response = await page.goto("/profile");
  expect(response?.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  await expect.poll(async () => viewsOfProfile(await scrape())).toBeGreaterThan(before);

  const text = await scrape();
  expect(text).not.toContain(person.email);
  // Route patterns only: no label holds an id.
  expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}-/);
});
