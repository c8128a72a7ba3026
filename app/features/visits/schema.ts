import { z } from "~/platform/validation";
import { QUICK_NOTES, VISIT_NOTE_MAX } from "./machine";
import { WALK_DISTANCE_MAX_M, WALK_DURATION_MAX_S } from "./walk";

const decimal = (message: string) =>
  z.pipe(
    z.transform((value: unknown) =>
      typeof value === "string" ? (value.trim() === "" ? undefined : Number(value.trim().replace(",", "."))) : value,
    ),
    z.number(message).check(z.refine(Number.isFinite, message)),
  );

export const detailsSchema = z.object({
  quickNotes: z._default(
    z.optional(
      z
        .array(z.enum(QUICK_NOTES, "care:errors.badInput"))
        .check(z.maxLength(QUICK_NOTES.length, "care:errors.badInput")),
    ),
    [],
  ),
  note: z._default(z.optional(z.string().check(z.trim(), z.maxLength(VISIT_NOTE_MAX, "care:errors.tooLong"))), ""),
});

export const typedWalkSchema = z.object({
  distanceKm: decimal("care:errors.walkDistance").check(
    z.gt(0, "care:errors.walkDistance"),
    z.lte(WALK_DISTANCE_MAX_M / 1000, "care:errors.walkDistance"),
  ),
  durationMinutes: decimal("care:errors.walkDuration").check(
    z.gte(1, "care:errors.walkDuration"),
    z.lte(WALK_DURATION_MAX_S / 60, "care:errors.walkDuration"),
  ),
});

/** The recorded route as JSON text; its content is checked by walkFromRoute. */
export const routeSchema = z.object({
  route: z.string("care:errors.badRoute").check(z.maxLength(60_000, "care:errors.badRoute")),
});

export const tickSchema = z.object({
  position: z.coerce
    .number<number>("care:errors.unknownItem")
    .check(
      z.refine(Number.isInteger, "care:errors.unknownItem"),
      z.gte(0, "care:errors.unknownItem"),
      z.lte(1000, "care:errors.unknownItem"),
    ),
});
