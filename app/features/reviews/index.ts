export { ProfileReviews } from "./profile-reviews";
export type { ReviewsSection } from "./profile-reviews";
export { REPLY_MAX, REVIEWS_PAGE_SIZE } from "./rules";
export { replySchema } from "./schema";
