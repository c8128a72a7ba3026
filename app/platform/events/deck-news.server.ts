import { db } from "~/platform/db.server";
import { bus, type EveryoneNews } from "./bus.server";
import { connectedUserIds } from "./hub.server";
import { recordEvents } from "./events.server";

// Only open decks can offer the news, so only people connected now hear it; owners browse sitters, sitters pets.
// Who is connected is known per instance: the news goes to every instance, and each tells its own audience.
async function tellConnected({ authorId, seenBy }: EveryoneNews): Promise<void> {
  const connected = connectedUserIds().filter((id) => id !== authorId);
  if (connected.length === 0) return;
  const audience = await db
    .selectFrom("users")
    .select("id")
    .where("id", "in", connected)
    .where("role", "in", seenBy === "owners" ? ["owner", "both"] : ["sitter", "both"])
    .execute();
  await recordEvents(audience.map(({ id }) => ({ userId: id, type: "deck" })));
}

bus.subscribeEveryone((news) => tellConnected(news).catch((error: unknown) => console.error("Could not announce a new profile", error)));

export async function announceNewProfile(authorId: string, seenBy: "owners" | "sitters"): Promise<void> {
  await bus.publish({ kind: "deck", authorId, seenBy });
}
