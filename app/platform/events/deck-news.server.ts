import { db } from "~/platform/db.server";
import { connectedUserIds } from "./hub.server";
import { recordEvents } from "./events.server";

// Only open decks can offer the news, so only people connected now hear it; owners browse sitters, sitters pets.
export async function announceNewProfile(authorId: string, seenBy: "owners" | "sitters"): Promise<void> {
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
