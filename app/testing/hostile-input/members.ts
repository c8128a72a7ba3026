import type { Forms } from "./form";

/** Profiles, pets, photos, the deck, reports, messages and notifications. */
export const MEMBER_FORMS: Forms = {
  "routes/dashboard.tsx": [
    {
      name: "like",
      who: "owner",
      url: () => "/dashboard",
      fields: (w) => [
        ["intent", "like"],
        ["userId", w.sitter.id],
        ["petId", ""],
        ["tab", "sitters"],
      ],
    },
    {
      name: "location",
      who: "owner",
      url: () => "/dashboard",
      fields: () => [
        ["intent", "location"],
        ["latitude", "40.4"],
        ["longitude", "-3.7"],
        ["refresh", "1"],
      ],
    },
    {
      name: "location error",
      who: "owner",
      errorToastIsOutcome: true,
      url: () => "/dashboard",
      fields: () => [
        ["intent", "location-error"],
        ["code", "denied"],
        ["tab", "pets"],
      ],
    },
    { name: "browse mode", who: "owner", url: () => "/dashboard", fields: () => [["intent", "browse-global"]] },
  ],
  "routes/dashboard-likes.tsx": [
    {
      name: "like back",
      who: "owner",
      url: () => "/dashboard/likes",
      fields: (w) => [
        ["intent", "like-back"],
        ["userId", w.sitter.id],
      ],
    },
  ],
  "routes/user-profile.tsx": [
    {
      name: "like back on a profile",
      who: "owner",
      url: (w) => `/users/${w.sitter.id}`,
      params: (w) => ({ userId: w.sitter.id }),
      fields: (w) => [
        ["intent", "like-back"],
        ["userId", w.sitter.id],
      ],
    },
  ],
  "routes/dashboard-filters.tsx": [
    {
      name: "filters",
      who: "owner",
      url: () => "/dashboard/filters",
      fields: () => [
        ["petType", "dog"],
        ["maxDistanceKm", "25"],
        ["minRating", "4"],
        ["maxPrice", "20"],
        ["sortBy", "distance"],
      ],
    },
  ],
  "routes/profile.tsx": [
    { name: "acting role", who: "both", url: () => "/profile", fields: () => [["actingRole", "owner"]] },
  ],
  "routes/profile-edit.tsx": [
    {
      name: "profile edit",
      who: "owner",
      url: () => "/profile/edit",
      fields: () => [
        ["name", "Ana"],
        ["phone", "+34 600 000 000"],
        ["city", "Madrid"],
        ["postalCode", "28004"],
        ["bio", "I love dogs."],
        ["timeZone", "Europe/Madrid"],
      ],
    },
    {
      name: "sitter details",
      who: "sitter",
      url: () => "/profile/edit",
      fields: () => [
        ["intent", "sitter"],
        ["hourlyRate", "22"],
        ["yearsExperience", "6"],
        ["experience", "puppies"],
        ["caresFor", "dog"],
        ["cancellationPolicy", "moderate"],
      ],
    },
  ],
  "routes/sitter-profile-setup.tsx": [
    {
      name: "sitter setup",
      who: "sitter",
      url: () => "/sitter-profile-setup",
      encoding: "multipart",
      fields: (w) => [
        ["bio", "Walks every day."],
        ["hourlyRate", "15"],
        ["experience", "puppies"],
        ["caresFor", "dog"],
        ["photos", w.image()],
      ],
    },
  ],
  "routes/pet-profile-setup.tsx": [
    {
      name: "pet setup",
      who: "owner",
      url: () => "/pet-profile-setup",
      encoding: "multipart",
      fields: (w) => [
        ["petType", "dog"],
        ["name", "Rex"],
        ["age", "3 years"],
        ["notes", "Friendly"],
        ["energyLevel", "high"],
        ["photos", w.image()],
      ],
    },
  ],
  "routes/pet-edit.tsx": [
    {
      name: "pet edit",
      who: "owner",
      url: (w) => `/pet/${w.petId}/edit`,
      params: (w) => ({ petId: w.petId }),
      fields: () => [
        ["petType", "dog"],
        ["name", "Rex"],
        ["age", "3"],
        ["notes", "Friendly"],
        ["temperament", "playful"],
        ["specialNeeds", ""],
        ["energyLevel", "medium"],
      ],
    },
  ],
  "routes/pet-delete.tsx": [
    {
      name: "pet delete",
      who: "owner",
      url: (w) => `/pet/${w.sparePetId}/delete`,
      params: (w) => ({ petId: w.sparePetId }),
      fields: () => [],
    },
  ],
  "routes/photos.tsx": [
    {
      name: "photo move",
      who: "owner",
      url: () => "/photos",
      fields: (w) => [
        ["photoId", w.photoId],
        ["move", "main"],
        ["redirectTo", "/profile/edit"],
      ],
    },
    {
      name: "photo upload",
      who: "owner",
      url: () => "/photos",
      encoding: "multipart",
      fields: (w) => [
        ["redirectTo", "/profile/edit"],
        ["photos", w.image()],
      ],
    },
  ],
  "routes/photo-delete.tsx": [
    {
      name: "photo delete",
      who: "owner",
      url: (w) => `/photos/${w.photoId}/delete`,
      params: (w) => ({ photoId: w.photoId }),
      fields: () => [["redirectTo", "/profile/edit"]],
    },
  ],
  "routes/report.tsx": [
    {
      name: "report a message",
      who: "owner",
      url: (w) => `/report/message/${w.messageId}`,
      params: (w) => ({ subjectType: "message", subjectId: w.messageId }),
      fields: () => [
        ["reason", "scam"],
        ["details", "Asked me to pay outside the app"],
      ],
    },
  ],
  "routes/profile-privacy.tsx": [
    {
      name: "block",
      who: "owner",
      url: (w) => `/profile/privacy?back=${encodeURIComponent(`/users/${w.both.id}`)}`,
      fields: (w) => [
        ["intent", "block"],
        ["userId", w.both.id],
      ],
    },
    {
      name: "unblock",
      who: "owner",
      url: () => "/profile/privacy",
      fields: (w) => [
        ["intent", "unblock"],
        ["userId", w.blockedId],
      ],
    },
  ],
  "routes/profile-public.tsx": [
    {
      name: "answer a review",
      who: "sitter",
      url: () => "/profile/public",
      fields: (w) => [
        ["reviewId", w.reviewId],
        ["reply", "Thank you"],
      ],
    },
  ],
  "routes/messages.tsx": [
    {
      name: "message",
      who: "owner",
      url: () => "/messages",
      fields: (w) => [
        ["conversationId", w.conversationId],
        ["body", "Hello"],
      ],
    },
    {
      name: "message with a photo",
      who: "owner",
      url: () => "/messages",
      encoding: "multipart",
      fields: (w) => [
        ["conversationId", w.conversationId],
        ["body", ""],
        ["attachment", w.image()],
      ],
    },
  ],
  "routes/messages-send.tsx": [
    {
      name: "message with a photo, with progress",
      who: "owner",
      url: () => "/messages/send",
      encoding: "multipart",
      fields: (w) => [
        ["conversationId", w.conversationId],
        ["body", ""],
        ["attachment", w.image()],
      ],
    },
    {
      name: "message by the progress route",
      who: "owner",
      url: () => "/messages/send",
      fields: (w) => [
        ["conversationId", w.conversationId],
        ["body", "Hello"],
      ],
    },
  ],
  "routes/notifications.tsx": [
    {
      name: "open notification",
      who: "owner",
      url: () => "/notifications",
      fields: (w) => [
        ["intent", "open"],
        ["id", w.notificationId],
      ],
    },
    {
      name: "mark all read",
      who: "owner",
      url: () => "/notifications",
      fields: () => [
        ["intent", "mark-all"],
        ["tab", "bookings"],
      ],
    },
    {
      name: "sounds",
      who: "owner",
      url: () => "/notifications",
      fields: () => [
        ["intent", "sounds"],
        ["sounds", "on"],
      ],
    },
  ],
};
