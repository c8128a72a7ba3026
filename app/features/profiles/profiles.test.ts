import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { person } from "~/testing/people";
import { completeSitterProfile, getPublicProfile } from "./profiles.server";
import { sitterSetupSchema } from "./schema";

const image = () => sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 40, g: 120, b: 200 } } }).jpeg().toBuffer();

describe("sitter setup", () => {
  it("falls back to 15 €/h on a non-number, refuses out-of-range rates, needs a pet type", () => {
    const base = { bio: "Experienced", caresFor: ["dog"] };
    expect(sitterSetupSchema.parse({ ...base, hourlyRate: "abc" }).hourlyRate).toBe(15);
    expect(sitterSetupSchema.safeParse({ ...base, hourlyRate: "4" }).success).toBe(false);
    expect(sitterSetupSchema.safeParse({ ...base, hourlyRate: "101" }).success).toBe(false);
    expect(sitterSetupSchema.parse({ ...base, hourlyRate: "12,5" }).hourlyRate).toBe(12.5);
    expect(sitterSetupSchema.safeParse({ bio: "x", hourlyRate: "20" }).error?.issues[0]?.message).toBe("validation.caresForRequired");
    expect(sitterSetupSchema.safeParse({ ...base, bio: "x".repeat(501), hourlyRate: "20" }).success).toBe(false);
  });

  it("turns an owner into 'both' and shows rate and experience on the public profile", async () => {
    const owner = await person("owner");
    const input = sitterSetupSchema.parse({ bio: "I walk dogs", hourlyRate: "18", caresFor: ["dog"], experience: ["puppies"] });
    expect(await completeSitterProfile(owner, input, [await image()])).toEqual({ status: "done" });
    const profile = await getPublicProfile(owner.id);
    expect(profile).toMatchObject({ role: "both", hourlyRateCents: 1800, experience: ["puppies"], caresFor: ["dog"] });
    expect(profile?.photos).toHaveLength(1);
  });
});
