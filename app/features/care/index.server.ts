export {
  carePlanOfPet,
  carePlanThroughBooking,
  checklistOf,
  EMPTY_CARE_PLAN,
  isEmptyPlan,
  mayReadCarePlan,
  ownCarePlan,
  saveCarePlan,
} from "./plans.server";
export type { CarePlanView, ChecklistEntry } from "./plans.server";
