import { hostileInputTests } from "~/testing/hostile-input/suite";
import { BOOKING_FORMS } from "~/testing/hostile-input/bookings";

hostileInputTests("bookings", BOOKING_FORMS);
