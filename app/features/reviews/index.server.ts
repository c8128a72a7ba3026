export { addReview, hideReview, replyToReview, reviewsOf, reviewsSection, sitterCancellations } from "./reviews.server";
export type { ReplyResult, ReviewView } from "./reviews.server";
export { reviewsDataSection } from "./personal-data.server";
