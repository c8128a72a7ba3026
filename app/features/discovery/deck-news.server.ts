import { db } from "~/platform/db.server";
import { bus, type EveryoneNews } from "~/platform/events/bus.server";
import { connectedUserIds } from "~/platform/events/hub.server";
import { recordEvents } from "~/platform/events/events.server";
import { greatCircleKm } from "~/features/geo/index.server";

// Only open decks can offer the news, so only people connected now hear it: owners for a sitter, sitters
// for a pet, and only those the newcomer is near, within the distance each chose in their filters (the
// offer says "nearby"; a viewer without a position has no deck to offer it on). Who is connected is
// known per instance: the news goes to every instance, and each tells its own audience.
export async function nearbyAudience({ authorId, seenBy }: EveryoneNews, connected: string[]): Promise<string[]> {
  const others = connected.filter((id) => id !== authorId);
  if (others.length === 0) return [];
  const author = await db
    .selectFrom("users")
    .select(["latitude", "longitude"])
    .where("id", "=", authorId)
    .executeTakeFirst();
  if (author?.latitude == null || author.longitude == null) return [];
  const from = { latitude: author.latitude, longitude: author.longitude };
  const viewers = await db
    .selectFrom("users")
    .select(["id", "latitude", "longitude", "filter_max_distance_km"])
    .where("id", "in", others)
    .where("role", "in", seenBy === "owners" ? ["owner", "both"] : ["sitter", "both"])
    .where("latitude", "is not", null)
    .where("longitude", "is not", null)
    .execute();
  return viewers
    .filter(
      ({ latitude, longitude, filter_max_distance_km }) =>
        greatCircleKm(from, { latitude: latitude!, longitude: longitude! }) <= filter_max_distance_km,
    )
    .map((viewer) => viewer.id);
}

/** Started once per process with the app: turns each announced profile into a live offer on the decks it may join. */
export function offerNewProfiles(): () => void {
  return bus.subscribeEveryone((news) =>
    nearbyAudience(news, connectedUserIds())
      .then((audience) => recordEvents(audience.map((userId) => ({ userId, type: "deck" as const }))))
      .catch((error: unknown) => console.error("Could not announce a new profile", error)),
  );
}
