import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { person } from "~/testing/people";
import { personalDataSections } from "~/features/account/index.server";

describe("a person's data", () => {
  it("exports the days a sitter marked not free, and erasure removes them", async () => {
    const sitter = await person("sitter");
    await db
      .insertInto("sitter_days_off")
      .values(["2030-03-02", "2030-03-01"].map((day) => ({ sitter_id: sitter.id, day })))
      .execute();
    const section = personalDataSections.find((candidate) => candidate.name === "daysNotFree")!;
    expect(await section.exportOf(sitter.id, db)).toEqual(["2030-03-01", "2030-03-02"]);
    await db.transaction().execute((trx) => section.erase({ ...sitter, phone: "" }, trx).then(() => undefined));
    expect(await section.exportOf(sitter.id, db)).toEqual([]);
  });
});
