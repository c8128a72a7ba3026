import { randomUUID } from "node:crypto";
import { dayAhead } from "~/testing/bookings";
import { weekdayOf } from "~/features/series/index.server";
import type { Fields, Form, Forms } from "./form";
import type { World } from "./world";

/** One of the sitter's posts on the visit page of the paid booking. */
function visitForm(name: string, fields: (w: World) => Fields): Form {
  return {
    name,
    who: "sitter",
    url: (w) => `/bookings/${w.paidBookingId}/visit`,
    params: (w) => ({ bookingId: w.paidBookingId }),
    fields,
  };
}

/** Availability, bookings and their steps, visits, meet & greets, weekly care. */
export const BOOKING_FORMS: Forms = {
  "routes/pet-care-plan.tsx": [
    {
      name: "care plan",
      who: "owner",
      url: (w) => `/pet/${w.petId}/care-plan`,
      params: (w) => ({ petId: w.petId }),
      fields: () => [
        ["feeding", "08:00 80 g\n18:00 80 g"],
        ["medication", "09:00 Apoquel 16 mg"],
        ["walks", "30 min on lead"],
        ["houseNotes", "Keys"],
        ["vetName", "Dr. Vega"],
        ["vetPhone", "+34 910 000 000"],
        ["vetAddress", "Calle Mayor 1"],
        ["emergencyName", "Ana"],
        ["emergencyPhone", "600"],
      ],
    },
  ],
  "routes/availability.tsx": [
    {
      name: "add availability",
      who: "sitter",
      url: () => "/availability",
      fields: (w) => [
        ["day", w.sitter.day],
        ["startTime", "18:00"],
        ["endTime", "20:00"],
      ],
    },
    {
      name: "save a month of free days",
      who: "sitter",
      url: () => "/availability",
      fields: (w) => [
        ["intent", "month"],
        ["month", w.sitter.day.slice(0, 7)],
        ["free", w.sitter.day],
      ],
    },
  ],
  "routes/availability-delete.tsx": [
    {
      name: "delete availability",
      who: "sitter",
      url: (w) => `/availability/${w.spareSlotId}/delete`,
      params: (w) => ({ slotId: w.spareSlotId }),
      fields: () => [],
    },
  ],
  "routes/booking-request.tsx": [
    {
      name: "booking request",
      who: "owner",
      url: () => "/booking/request",
      fields: (w) => [
        ["id", randomUUID()],
        ["sitterId", w.sitter.id],
        ["petIds", w.petId],
        ["day", w.sitter.day],
        ["startTime", "14:00"],
        ["hours", "1"],
        ["notes", "Gate code 12"],
        ["cancellationPolicy", "flexible"],
      ],
    },
  ],
  "routes/meet-new.tsx": [
    {
      name: "meet & greet proposal",
      who: "owner",
      url: () => "/meet/new",
      fields: (w) => [
        ["id", randomUUID()],
        ["sitterId", w.sitter.id],
        ["day", dayAhead(w.sitter.time_zone, 3)],
        ["time", "17:00"],
        ["place", "elsewhere"],
        ["placeNote", "The park gate"],
      ],
    },
  ],
  "routes/meet-greet.tsx": [
    {
      name: "meet & greet answer",
      who: "sitter",
      url: (w) => `/meet/${w.meetGreetId}`,
      params: (w) => ({ meetId: w.meetGreetId }),
      fields: (w) => [
        ["intent", "move"],
        ["day", dayAhead(w.sitter.time_zone, 4)],
        ["time", "09:30"],
        ["place", "video"],
        ["placeNote", ""],
      ],
    },
  ],
  "routes/booking-walk.tsx": [
    {
      name: "walk request",
      who: "owner",
      url: () => "/booking/walk",
      fields: (w) => [
        ["id", randomUUID()],
        ["sitterId", w.sitter.id],
        ["service", "walk"],
        ["petIds", w.petId],
        ["day", w.sitter.day],
        ["startTime", "15:00"],
        ["notes", "Lead on the hook"],
        ["cancellationPolicy", "flexible"],
      ],
    },
    {
      name: "weekly walk request",
      who: "owner",
      url: () => "/booking/walk",
      fields: (w) => [
        ["id", randomUUID()],
        ["sitterId", w.sitter.id],
        ["service", "walk"],
        ["petIds", w.petId],
        ["day", w.sitter.day],
        ["startTime", "15:00"],
        ["notes", ""],
        ["cancellationPolicy", "flexible"],
        ["repeat", "weekly"],
        ["weekdays", String(weekdayOf(w.sitter.day))],
        ["until", ""],
      ],
    },
  ],
  "routes/series.tsx": [
    {
      name: "weekly care: skip a date",
      who: "owner",
      url: (w) => `/series/${w.seriesId}`,
      params: (w) => ({ seriesId: w.seriesId }),
      fields: (w) => [
        ["intent", "skip"],
        ["day", w.seriesDay],
      ],
    },
    {
      name: "weekly care: change the days or time",
      who: "owner",
      url: (w) => `/series/${w.seriesId}`,
      params: (w) => ({ seriesId: w.seriesId }),
      fields: (w) => [
        ["intent", "propose-change"],
        ["fromDay", w.seriesDay],
        ["weekdays", String(weekdayOf(w.seriesDay))],
        ["startTime", "16:30"],
      ],
    },
  ],
  "routes/booking-stay.tsx": [
    {
      name: "stay request",
      who: "owner",
      url: () => "/booking/stay",
      fields: (w) => [
        ["id", randomUUID()],
        ["sitterId", w.sitter.id],
        ["service", "boarding"],
        ["petIds", w.petId],
        ["firstDay", dayAhead(w.sitter.time_zone, 5)],
        ["dropOff", "10:00"],
        ["lastDay", dayAhead(w.sitter.time_zone, 8)],
        ["pickUp", "18:00"],
        ["notes", "Gate code 12"],
        ["cancellationPolicy", "flexible"],
      ],
    },
  ],
  "routes/booking-action.ts": [
    {
      name: "booking accept",
      who: "sitter",
      url: (w) => `/bookings/${w.paidBookingId}`,
      params: (w) => ({ bookingId: w.paidBookingId }),
      fields: () => [["intent", "accept"]],
    },
  ],
  "routes/booking-visit.tsx": [
    visitForm("visit check-in", () => [["intent", "check-in"]]),
    visitForm("visit check-out", () => [["intent", "check-out"]]),
    visitForm("visit tick", () => [
      ["intent", "tick"],
      ["position", "0"],
    ]),
    visitForm("visit notes", () => [
      ["intent", "details"],
      ["quickNotes", "ate"],
      ["quickNotes", "peed"],
      ["note", "Good boy"],
    ]),
    visitForm("visit typed walk", () => [
      ["intent", "walk"],
      ["distanceKm", "1.5"],
      ["durationMinutes", "30"],
    ]),
    visitForm("visit recorded walk", () => [
      ["intent", "walk"],
      ["route", "[[40.4165,-3.7038,0],[40.4169,-3.7038,60]]"],
    ]),
    {
      ...visitForm("visit photo", (w) => [
        ["intent", "media"],
        ["media", w.image()],
      ]),
      encoding: "multipart",
    },
  ],
  "routes/booking-cancel.tsx": [
    {
      name: "booking cancel",
      who: "owner",
      url: (w) => `/bookings/${w.paidBookingId}/cancel`,
      params: (w) => ({ bookingId: w.paidBookingId }),
      fields: () => [["reason", "Plans changed"]],
    },
  ],
  "routes/booking-problem.tsx": [
    {
      name: "add to a problem",
      who: "sitter",
      url: (w) => `/bookings/${w.disputedBookingId}/problem`,
      params: (w) => ({ bookingId: w.disputedBookingId }),
      fields: (w) => [
        ["intent", "post"],
        ["body", "I stayed the whole hour"],
        ["photos", w.image()],
      ],
      encoding: "multipart",
    },
  ],
  "routes/booking-review.tsx": [
    {
      name: "booking review",
      who: "owner",
      url: (w) => `/bookings/${w.paidBookingId}/review`,
      params: (w) => ({ bookingId: w.paidBookingId }),
      fields: () => [
        ["rating", "5"],
        ["comment", "Great"],
      ],
    },
  ],
};
