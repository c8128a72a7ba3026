export { admirerCount, admirersOf } from "./admirers.server";
export { handleDeckAction, resetFilters, saveFilters } from "./deck-actions.server";
export { deckFor, filtersOf, firstFilterDay, tabsFor } from "./deck.server";
export { offerNewProfiles } from "./deck-news.server";
export type { DeckTab, Viewer } from "./deck.server";
export { promptPostponed, saveDeviceLocation, setBrowseMode } from "./location.server";
export { FREE_DAILY_LIKES, findMatch, hasSwiped, likesLeftToday, recentMatches, swipe } from "./swipes.server";
export { connectionWith, handleLikeBack, likeBack } from "./like-back.server";
export type { Connection } from "./like-back.server";
