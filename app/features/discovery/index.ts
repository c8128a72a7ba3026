export { deckCardText, topPhotoPreload } from "./deck-card";
export { DISTANCE_KM, MAX_PRICE_EUROS, OWNER_ONLY_SORTS, SORTS, activeFilterCount } from "./filters";
export { filtersSchema } from "./filters-schema";
export { deckHref } from "./links";
export { LocationChoices, LocationPrompt } from "./location-controls";
export { BrowseModeForm, FiltersButton } from "./deck-controls";
export { CareFilterFields } from "./care-filters";
export { SwipeDeck } from "./swipe-deck";
export { LikeBackButton } from "./like-back-button";
export { NewProfilesOffer } from "./new-profiles-offer";
export { RecentMatches } from "./recent-matches";

// The filters' schema, for validation in the browser once the form is in use.
export const loadFiltersSchema = () => import("./filters-schema");
