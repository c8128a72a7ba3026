export {
  carePlanOfPet,
  carePlansThroughBooking,
  checklistOf,
  checklistOfBooking,
  EMPTY_CARE_PLAN,
  isEmptyPlan,
  mayReadCarePlan,
  ownCarePlan,
  saveCarePlan,
} from "./plans.server";
export type { BookedCarePlan, CarePlanView, ChecklistEntry } from "./plans.server";
export { carePlansSection } from "./personal-data.server";
