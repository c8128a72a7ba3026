import { describe, expect, it } from "vitest";
import type { User } from "~db/schema";
import { db } from "~/platform/db.server";
import { person } from "~/testing/people";
import { caresForColumns, updateSitterDetails } from "~/features/profiles/index.server";
import { sitterDetailsSchema } from "~/features/profiles";
import { deckFor, type SitterCard } from "./deck.server";

const MADRID = { latitude: 40.4168, longitude: -3.7038 };
const columns = { ...caresForColumns(["dog"]), browse_mode: "global" as const };

describe("a sitter's card", () => {
  it("carries the services they offer besides by the hour, each with its price", async () => {
    const owner = await person("owner", { at: MADRID, columns });
    const sitter = await person("sitter", { at: MADRID, columns });
    const plain = await person("sitter", { at: MADRID, columns });
    await updateSitterDetails(
      sitter,
      sitterDetailsSchema.parse({
        servicesShown: "1",
        services: ["hourly", "boarding", "walk"],
        hourlyRate: "15",
        boardingPrice: "30",
        walkPrice: "12",
        caresFor: ["dog"],
      }),
    );
    const viewer = (await db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", owner.id)
      .executeTakeFirstOrThrow()) as User;
    const result = await deckFor(viewer, "sitters", 10);
    if (result.status !== "cards") throw new Error(result.status);
    const cards = result.cards as SitterCard[];
    expect(cards.find((card) => card.userId === sitter.id)?.services).toEqual([
      { service: "walk", unit: "walk", priceCents: 1200, durationMinutes: 30 },
      { service: "boarding", unit: "night", priceCents: 3000, durationMinutes: null },
    ]);
    expect(cards.find((card) => card.userId === plain.id)?.services).toEqual([]);
  });
});
