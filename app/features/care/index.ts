export { CarePlanDetails } from "./care-plan-view";
export { CarePlanForm } from "./care-plan-form";
export { careLines } from "./care-lines";
export { carePlanSchema } from "./schema";
export type { CarePlanInput } from "./schema";
export { careWindowOpen, PLAN_CLOSES_AFTER_MS, PLAN_OPENS_BEFORE_MS } from "./window";
