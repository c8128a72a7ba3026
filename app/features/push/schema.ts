import { maxLength, minLength, z } from "~/platform/validation";

const text = (max: number) => z.string("settings:push.refusals.invalid").check(minLength(1), maxLength(max));

/** What the settings page's push code posts to /settings/push. */
export const pushActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("subscribe"), endpoint: text(2048), p256dh: text(200), auth: text(200) }),
  z.object({ intent: z.literal("unsubscribe"), endpoint: text(2048) }),
  z.object({ intent: z.literal("test"), endpoint: text(2048) }),
]);
