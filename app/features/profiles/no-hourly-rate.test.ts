import { describe, expect, it } from "vitest";
import { startSession } from "~/platform/session.server";
import { person } from "~/testing/people";
import { loader } from "~/routes/booking-request";

async function requestPageFor(sitterId: string): Promise<unknown> {
  const owner = await person("owner");
  const cookie = (await startSession(owner.id)).split(";")[0]!;
  const request = new Request(`http://localhost/booking/request?walkerId=${encodeURIComponent(sitterId)}`, {
    headers: { Cookie: cookie },
  });
  try {
    return await loader({ request, params: {}, context: {} as never });
  } catch (thrown) {
    return thrown;
  }
}

describe("the hourly request page for a sitter without an hourly rate", () => {
  it("answers 404 with the sitter, for a page that links back to their profile", async () => {
    const sitter = await person("sitter", { rateCents: null, name: "Lucía" });
    const answer = (await requestPageFor(sitter.id)) as { init: { status: number }; data: unknown };
    expect(answer.init.status).toBe(404);
    expect(answer.data).toEqual({ noHourlyRate: { id: sitter.id, name: "Lucía" } });
  });

  it("stays a bare not-found for anyone else", async () => {
    const owner = await person("owner");
    const answer = (await requestPageFor(owner.id)) as Response;
    expect(answer).toBeInstanceOf(Response);
    expect(answer.status).toBe(404);
  });
});
