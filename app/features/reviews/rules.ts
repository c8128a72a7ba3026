export const REVIEWS_PAGE_SIZE = 5;
export const REPLY_MAX = 1000;
