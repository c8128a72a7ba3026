export { MeetGreetList, ProposalFields } from "./meet-greet-parts";
export type { ListedMeetGreet } from "./meet-greet-parts";
export { moveSchema, proposalSchema } from "./schema";
export { MEET_GREET_PLACES } from "./machine";
export type { MeetGreetRefusal } from "./machine";

// The forms' schemas, for validation in the browser once a form is in use.
export const loadMeetGreetSchemas = () => import("./schema");
