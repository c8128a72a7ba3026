export { addPost, mayViewDisputeMedia, reportProblem, resolveDispute, useOperatorDirectory } from "./disputes.server";
export type { DisputeResult } from "./disputes.server";
export { disputeForOperator, disputeQueue, moneyOf, problemPage, QUEUE_PAGE_SIZE } from "./views.server";
export type { BookingMoney, DisputePostView, DisputeStatusFilter } from "./views.server";
export { disputePageText, postsText, uploadProblemReply } from "./page-text.server";
