export { addPost, mayViewDisputeMedia, reportProblem, resolveDispute, takesPart } from "./disputes.server";
export type { DisputeResult } from "./disputes.server";
export { disputeForOperator, disputeQueue, moneyOf, problemPage, QUEUE_PAGE_SIZE } from "./views.server";
export type { DisputePostView, DisputeStatusFilter, PaymentRecordView } from "./views.server";
export { disputePageText, historyText, moneyText, postsText, uploadProblemReply } from "./page-text.server";
export { BOOKINGS_PAGE_SIZE, bookingForOperator, findBookings, refundBooking } from "./operator-bookings.server";
export { disputesSection } from "./personal-data.server";
