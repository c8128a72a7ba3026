// The list of personal-data sections, in the order the export writes them and the erasure runs them.
// Each area's section lives in the area that owns its tables; the account's own are in personal-data.server.ts.
import type { PersonalDataSection } from "~/platform/personal-data.server";
import { availabilitySection, daysNotFreeSection } from "~/features/availability/index.server";
import { bookingsSection } from "~/features/bookings/index.server";
import { calendarAddressSection } from "~/features/calendar/index.server";
import { carePlansSection } from "~/features/care/index.server";
import { matchesSection, swipesSection } from "~/features/discovery/index.server";
import { disputesSection } from "~/features/disputes/index.server";
import { photosSection } from "~/features/media/index.server";
import { meetGreetsSection } from "~/features/meet-greets/index.server";
import { messagesSection } from "~/features/messages/index.server";
import { notificationsSection } from "~/features/notifications/index.server";
import { petsSection } from "~/features/pets/index.server";
import { profileSection, servicesSection } from "~/features/profiles/index.server";
import { pushDevicesSection } from "~/features/push/index.server";
import { reviewsDataSection } from "~/features/reviews/index.server";
import { blocksSection, reportsSection } from "~/features/safety/index.server";
import { weeklyCareSection } from "~/features/series/index.server";
import { paymentsSection } from "~/features/subscriptions/index.server";
import { visitReportsSection } from "~/features/visits/index.server";
import { emailsSection, securitySection } from "./personal-data.server";

export { DELETED_MEMBER } from "~/platform/personal-data.server";
export type { ErasedPerson, PersonalDataSection } from "~/platform/personal-data.server";

/**
 * Export and erasure both walk this list. The "profile" section comes first in the export; its row
 * is emptied last, by the erasure, once every other section has used the name.
 */
export const personalDataSections: PersonalDataSection[] = [
  profileSection,
  photosSection,
  carePlansSection,
  petsSection,
  availabilitySection,
  servicesSection,
  daysNotFreeSection,
  swipesSection,
  matchesSection,
  messagesSection,
  bookingsSection,
  paymentsSection,
  reviewsDataSection,
  visitReportsSection,
  disputesSection,
  reportsSection,
  blocksSection,
  pushDevicesSection,
  meetGreetsSection,
  weeklyCareSection,
  calendarAddressSection,
  notificationsSection,
  emailsSection,
  securitySection,
];
