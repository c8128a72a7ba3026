import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { person } from "~/testing/people";
import { env } from "~/platform/env.server";
import {
  addPhotos,
  deletePhoto,
  keepPendingUploads,
  listPendingUploads,
  listPhotos,
  movePhoto,
} from "~/features/media/index.server";
import { createPet, deletePet, findOwnPet, PET_FORM, updatePet } from "./pets.server";
import { petCreateSchema, petSchema, type PetInput } from "./schema";

const image = (hue = 40) =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: { r: hue, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer();
const stored = (key: string) => existsSync(path.join(env.DATA_DIR, "media", key));
const pet: PetInput = petSchema.parse({
  petType: "dog",
  name: "Rex",
  age: "3 years",
  breed: "beagle",
  temperament: ["calm"],
}) as PetInput;

describe("pets", () => {
  it("needs a photo, and keeps the pet only when its photos were accepted", async () => {
    const owner = await person("owner");
    expect(await createPet(owner.id, pet, [])).toEqual({ status: "refused", problem: "validation.petPhotoRequired" });
    expect(await createPet(owner.id, pet, [Buffer.from("<html></html>")])).toEqual({
      status: "refused",
      problem: "media.notAnImage",
    });
    expect(await db.selectFrom("pets").select("id").where("owner_id", "=", owner.id).execute()).toHaveLength(0);
    const created = await createPet(owner.id, pet, [await image()]);
    expect(created.status).toBe("created");
  });

  it("lets only the owner read, change or delete a pet, and deleting removes its files", async () => {
    const owner = await person("owner");
    const stranger = await person("owner");
    const created = await createPet(owner.id, pet, [await image(), await image(90)]);
    if (created.status !== "created") throw new Error("not created");
    expect(await findOwnPet(stranger.id, created.petId)).toBeNull();
    expect(await updatePet(stranger.id, created.petId, { ...pet, name: "Stolen" })).toBe(false);
    expect(await deletePet(stranger.id, created.petId)).toBe(false);
    expect((await findOwnPet(owner.id, created.petId))?.name).toBe("Rex");

    const photos = await listPhotos({ userId: owner.id, petId: created.petId });
    expect(photos.every((p) => stored(p.card_key) && stored(p.full_key))).toBe(true);
    expect(await deletePet(owner.id, created.petId)).toBe(true);
    expect(photos.some((p) => stored(p.card_key) || stored(p.full_key))).toBe(false);
    expect(await listPhotos({ userId: owner.id, petId: created.petId })).toHaveLength(0);
  });

  it("keeps a pet's last photo", async () => {
    const owner = await person("owner");
    const created = await createPet(owner.id, pet, [await image()]);
    if (created.status !== "created") throw new Error("not created");
    const [only] = await listPhotos({ userId: owner.id, petId: created.petId });
    expect(await deletePhoto(owner.id, only!.id)).toBe("last-pet-photo");
    expect(await listPhotos({ userId: owner.id, petId: created.petId })).toHaveLength(1);
  });

  it("makes a sitter who adds a pet an owner too", async () => {
    const sitter = await person("sitter", { rateCents: null });
    await createPet(sitter.id, pet, [await image()]);
    const row = await db
      .selectFrom("users")
      .select(["role", "acting_role"])
      .where("id", "=", sitter.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: "both", acting_role: "owner" });
  });

  it("reports every missing field at once, naming the kind of pet", () => {
    const result = petSchema.safeParse({ petType: "cat" });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["name", "validation.petNameRequired.cat"],
      ["age", "validation.petAgeRequired"],
    ]);
    expect(petSchema.safeParse({ petType: "dog", name: "A", age: "1", breed: "maineCoon" }).success).toBe(false);
  });
});

describe("photos", () => {
  it("holds six at most, even across separate uploads", async () => {
    const user = await person("owner");
    const owner = { userId: user.id, petId: null };
    expect(await addPhotos(owner, await Promise.all([1, 2, 3, 4].map((n) => image(n * 30))))).toEqual({
      status: "added",
      count: 4,
    });
    expect(await addPhotos(owner, await Promise.all([5, 6, 7].map((n) => image(n * 30))))).toEqual({
      status: "refused",
      problem: "media.tooMany",
    });
    expect(await addPhotos(owner, await Promise.all([5, 6].map((n) => image(n * 30))))).toEqual({
      status: "added",
      count: 2,
    });
    expect(await listPhotos(owner)).toHaveLength(6);
  });

  it("reorders and deletes only one's own photos, keeping positions without gaps", async () => {
    const user = await person("owner");
    const stranger = await person("owner");
    const owner = { userId: user.id, petId: null };
    await addPhotos(owner, await Promise.all([1, 2, 3].map((n) => image(n * 50))));
    const [first, second, third] = await listPhotos(owner);
    expect(await movePhoto(stranger.id, third!.id, "main")).toBe(false);
    expect(await deletePhoto(stranger.id, first!.id)).toBe("not-found");
    expect(await movePhoto(user.id, third!.id, "main")).toBe(true);
    expect((await listPhotos(owner)).map((p) => p.id)).toEqual([third!.id, first!.id, second!.id]);
    expect(await deletePhoto(user.id, first!.id)).toBe("deleted");
    expect(stored(first!.card_key)).toBe(false);
    const rest = await listPhotos(owner);
    expect(rest.map((p) => [p.id, p.position])).toEqual([
      [third!.id, 0],
      [second!.id, 1],
    ]);
  });
});

describe("pet creation form", () => {
  const errorsOf = (input: Record<string, unknown>) =>
    Object.fromEntries(
      (petCreateSchema.safeParse(input).error?.issues ?? []).map((issue) => [issue.path?.[0], issue.message]),
    );

  it("reports a missing photo together with a missing name and age", () => {
    expect(errorsOf({ petType: "cat" })).toEqual({
      name: "validation.petNameRequired.cat",
      age: "validation.petAgeRequired",
      photos: "validation.petPhotoRequired",
    });
    const file = new File([new Uint8Array([1, 2, 3])], "rex.jpg");
    expect(errorsOf({ petType: "dog", photos: [file] })).toEqual({
      name: "validation.petNameRequired.dog",
      age: "validation.petAgeRequired",
    });
    expect(errorsOf({ petType: "dog", name: "Rex", age: "2", pending: [randomUUID()] })).toEqual({});
    expect(
      errorsOf({ petType: "dog", name: "Rex", age: "2", photos: Array.from({ length: 7 }, () => file) }).photos,
    ).toBe("profile:media.tooMany");
  });

  it("uses the owner's kept photos, never another person's, and a refused one changes nothing", async () => {
    const owner = await person("owner");
    const stranger = await person("owner");
    await keepPendingUploads(owner.id, PET_FORM, [await image()]);
    const [kept] = await listPendingUploads(owner.id, PET_FORM);
    expect(await createPet(stranger.id, pet, [], [kept!.id])).toEqual({
      status: "refused",
      problem: "media.pendingGone",
    });
    expect(await createPet(owner.id, pet, [], [randomUUID()])).toEqual({
      status: "refused",
      problem: "media.pendingGone",
    });
    expect(await createPet(owner.id, pet, [Buffer.from("not an image")], [kept!.id])).toEqual({
      status: "refused",
      problem: "media.notAnImage",
    });
    const pets = () => db.selectFrom("pets").select("id").where("owner_id", "in", [owner.id, stranger.id]).execute();
    expect(await pets()).toHaveLength(0);
    expect(await listPendingUploads(owner.id, PET_FORM)).toHaveLength(1);

    const created = await createPet(owner.id, pet, [await image(90)], [kept!.id]);
    if (created.status !== "created") throw new Error("not created");
    const photos = await listPhotos({ userId: owner.id, petId: created.petId });
    expect(photos).toHaveLength(2);
    expect(photos.every((photo) => stored(photo.card_key) && stored(photo.full_key))).toBe(true);
    expect(photos[1]?.card_key).toBe(kept!.cardUrl.replace("/media/", ""));
    expect(await listPendingUploads(owner.id, PET_FORM)).toEqual([]);
  });
});
