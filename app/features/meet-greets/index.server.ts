export {
  actOnMeetGreet,
  meetGreetView,
  meetGreetsOf,
  meetableSitter,
  meetGreetRefusalReply,
  newProposalId,
  proposeMeetGreet,
  runDueMeetGreetReminders,
} from "./meet-greets.server";
export type { MeetGreetResult, MeetGreetView, ProposalInput } from "./meet-greets.server";
export { meetGreetsSection } from "./personal-data.server";
