export { actOnSeries, changeRefusalReply, requestSeries, seriesCardLabel, seriesRefusalReply } from "./series.server";
export { generateFor, runDueSeriesWork } from "./generator.server";
export type { SeriesOutcome, SeriesRequestInput, SeriesRequestRefusal } from "./series.server";
export { seriesOf, seriesView, weekdayChoices, weekdayNames } from "./views.server";
export type { SeriesDate, SeriesView } from "./views.server";
export { weekdayOf } from "./machine";
export { weeklyCareSection } from "./personal-data.server";
