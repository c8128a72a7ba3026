import { redirect } from "@remix-run/node";
import { z } from "~/platform/validation";
import type { User } from "~db/schema";
import { db } from "~/platform/db.server";
import { redirectWithToast } from "~/platform/toast.server";
import { DEFAULT_FILTERS, type DeckFilters } from "./filters";
import { deckHref } from "./links";
import { positionChangeLimit, TOO_OFTEN } from "~/features/geo/index.server";
import { forgetDeviceLocation, locationPromptLater, saveDeviceLocation, setBrowseMode } from "./location.server";
import { isPremiumUser } from "~/features/subscriptions/index.server";
import { FREE_DAILY_LIKES, startOver, swipe } from "./swipes.server";

const tabSchema = z.catch(z.nullable(z.enum(["sitters", "pets"])), null);
const id = z.string().check(z.trim(), z.minLength(1), z.maxLength(64));
const petId = z._default(z.union([id, z.literal("")]), "");

const deckActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("like"), userId: id, petId }),
  z.object({ intent: z.literal("pass"), userId: id, petId }),
  z.object({ intent: z.literal("start-over") }),
  z.object({ intent: z.literal("browse-local") }),
  z.object({ intent: z.literal("browse-global") }),
  z.object({
    intent: z.literal("location"),
    latitude: z.coerce.number().check(z.gte(-90), z.lte(90)),
    longitude: z.coerce.number().check(z.gte(-180), z.lte(180)),
    refresh: z.optional(z.literal("1")),
  }),
  z.object({ intent: z.literal("location-error"), code: z.enum(["unsupported", "denied", "unavailable", "timeout"]) }),
  z.object({ intent: z.literal("later") }),
]);

const locationErrors = {
  unsupported: { title: "discovery:location.unsupported" },
  denied: { title: "discovery:location.denied", description: "discovery:location.deniedHint" },
  unavailable: { title: "discovery:location.unavailable" },
  timeout: { title: "discovery:location.timeout" },
} as const;

export async function handleDeckAction(user: User, form: FormData): Promise<Response> {
  const tab = tabSchema.parse(form.get("tab"));
  const back = deckHref(tab);
  const parsed = deckActionSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) throw new Response("Bad request", { status: 400 });
  const input = parsed.data;

  switch (input.intent) {
    case "like":
    case "pass": {
      const unlimitedLikes = input.intent === "like" && (await isPremiumUser(user.id));
      const result = await swipe(user, { userId: input.userId, petId: input.petId || null }, input.intent, {
        unlimitedLikes,
      });
      if (result.status === "not-found")
        return redirectWithToast(back, { type: "error", title: "discovery:deck.gone" });
      if (result.status === "limit-reached") {
        return redirectWithToast(back, {
          type: "error",
          title: "discovery:limit.title",
          description: "discovery:limit.body",
          values: { count: FREE_DAILY_LIKES },
        });
      }
      return redirect(result.newMatch ? `/dashboard/match/${result.newMatch.id}${tab ? `?tab=${tab}` : ""}` : back);
    }
    case "start-over":
      await startOver(user.id);
      return redirectWithToast(back, { type: "success", title: "discovery:deck.startedOver" });
    case "browse-local":
    case "browse-global": {
      const mode = input.intent === "browse-local" ? "local" : "global";
      if (mode === "local" && (user.latitude === null || user.longitude === null)) {
        return redirectWithToast(back, {
          type: "error",
          title: "discovery:location.cityUnknown",
          values: { city: user.city },
        });
      }
      await setBrowseMode(user.id, mode);
      return redirectWithToast(back, {
        type: "info",
        title: mode === "local" ? "discovery:mode.localTitle" : "discovery:mode.globalTitle",
        description: mode === "local" ? "discovery:mode.localBody" : "discovery:mode.globalBody",
      });
    }
    case "location":
      if ((await saveDeviceLocation(user.id, { latitude: input.latitude, longitude: input.longitude })) === TOO_OFTEN) {
        return redirectWithToast(back, {
          type: "error",
          title: "discovery:location.tooOften",
          description: "discovery:location.tooOftenBody",
          values: { limit: String(positionChangeLimit.max) },
        });
      }
      if (input.refresh) return redirect(back);
      return redirectWithToast(back, {
        type: "success",
        title: "discovery:location.enabledTitle",
        description: "discovery:location.enabledBody",
      });
    case "location-error": {
      // A refusal forgets the device's position; the city on the profile stands in for it.
      const fallback = input.code === "denied" ? await forgetDeviceLocation(user.id) : null;
      if (fallback) await setBrowseMode(user.id, "local");
      return redirectWithToast(back, { type: "error", ...locationErrors[input.code] });
    }
    case "later":
      return redirect(back, { headers: { "Set-Cookie": await locationPromptLater.serialize("1") } });
  }
}

export async function saveFilters(userId: string, filters: DeckFilters): Promise<void> {
  await db
    .updateTable("users")
    .set({
      filter_pet_type: filters.petType,
      filter_max_distance_km: filters.maxDistanceKm,
      filter_min_rating: filters.minRating,
      filter_max_price_cents: filters.maxPriceCents,
      filter_sort: filters.sortBy,
      filter_service: filters.service,
      filter_first_day: filters.firstDay,
      filter_last_day: filters.lastDay,
      filter_pets: filters.pets,
    })
    .where("id", "=", userId)
    .execute();
}

export const resetFilters = (userId: string) => saveFilters(userId, DEFAULT_FILTERS);
