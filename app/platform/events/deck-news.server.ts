import { bus, type EveryoneNews } from "./bus.server";

/** A profile others may now see on their deck; who is told is the discovery feature's rule (`offerNewProfiles`). */
export async function announceNewProfile(authorId: string, seenBy: EveryoneNews["seenBy"]): Promise<void> {
  await bus.publish({ kind: "deck", authorId, seenBy });
}
