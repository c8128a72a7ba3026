// The Web Push part of a person's data export and erasure: their devices and the pushes for them or
// naming them.
import { mentions, type PersonalDataSection } from "~/platform/personal-data.server";
import { eraseSubscriptions, exportSubscriptions } from "./subscriptions.server";

export const pushDevicesSection: PersonalDataSection = {
  // Web Push: the devices (their endpoints and keys are the browser's secrets, not exported), and
  // the pushes written for the person or naming them.
  name: "push-devices",
  exportOf: (userId, database) => exportSubscriptions(userId, database),
  async erase(person, trx) {
    await eraseSubscriptions(person.id, trx);
    await trx
      .deleteFrom("push_outbox")
      .where((eb) =>
        eb.or([
          eb("user_id", "=", person.id),
          eb("source_user_id", "=", person.id),
          ...(person.name ? [mentions("title", person, person.name), mentions("body", person, person.name)] : []),
        ]),
      )
      .execute();
  },
};
