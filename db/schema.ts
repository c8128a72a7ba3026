// The database's types: db/schema/<owner>.ts holds the tables the owner (a feature, or app/platform/) writes,
// with their column and row types. Everything imports them from here; Database composes the owners' tables.

import type { PlatformTables } from "./schema/platform";
import type { AuthTables } from "./schema/auth";
import type { AccountTables } from "./schema/account";
import type { NotificationTables } from "./schema/notifications";
import type { PetTables } from "./schema/pets";
import type { MediaTables } from "./schema/media";
import type { DiscoveryTables } from "./schema/discovery";
import type { GeoTables } from "./schema/geo";
import type { ProfileTables } from "./schema/profiles";
import type { AvailabilityTables } from "./schema/availability";
import type { BookingTables } from "./schema/bookings";
import type { PaymentTables } from "./schema/payments";
import type { SubscriptionTables } from "./schema/subscriptions";
import type { CalendarTables } from "./schema/calendar";
import type { MessageTables } from "./schema/messages";
import type { ReviewTables } from "./schema/reviews";
import type { DisputeTables } from "./schema/disputes";
import type { SafetyTables } from "./schema/safety";
import type { CareTables } from "./schema/care";
import type { VisitTables } from "./schema/visits";
import type { PushTables } from "./schema/push";
import type { MeetGreetTables } from "./schema/meet-greets";
import type { SeriesTables } from "./schema/series";

export type * from "./schema/shared";
export type * from "./schema/platform";
export type * from "./schema/auth";
export type * from "./schema/account";
export type * from "./schema/notifications";
export type * from "./schema/pets";
export type * from "./schema/media";
export type * from "./schema/discovery";
export type * from "./schema/geo";
export type * from "./schema/profiles";
export type * from "./schema/availability";
export type * from "./schema/bookings";
export type * from "./schema/payments";
export type * from "./schema/subscriptions";
export type * from "./schema/calendar";
export type * from "./schema/messages";
export type * from "./schema/reviews";
export type * from "./schema/disputes";
export type * from "./schema/safety";
export type * from "./schema/care";
export type * from "./schema/visits";
export type * from "./schema/push";
export type * from "./schema/meet-greets";
export type * from "./schema/series";

/** Every table, by name: the union of the owners' tables. */
export interface Database
  extends
    PlatformTables,
    AuthTables,
    AccountTables,
    NotificationTables,
    PetTables,
    MediaTables,
    DiscoveryTables,
    GeoTables,
    ProfileTables,
    AvailabilityTables,
    BookingTables,
    PaymentTables,
    SubscriptionTables,
    CalendarTables,
    MessageTables,
    ReviewTables,
    DisputeTables,
    SafetyTables,
    CareTables,
    VisitTables,
    PushTables,
    MeetGreetTables,
    SeriesTables {}
