export {
  EndSeries,
  NextDates,
  PendingChange,
  RepeatChoice,
  SIMPLE_INTENTS,
  SeriesAnswers,
  SeriesList,
  SeriesSummary,
  WeekdayChoice,
} from "./series-parts";
export type { ListedSeries, SimpleIntent, WeekdayName } from "./series-parts";
export { changeSchema, skipSchema, weekdaysField } from "./schema";
export type { SeriesRefusal } from "./machine";

// The forms' schemas, for validation in the browser once a form is in use.
export const loadSeriesSchemas = () => import("./schema");
