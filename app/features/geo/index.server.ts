export {
  closenessAt,
  closenessSql,
  coarsen,
  greatCircleKm,
  kilometresFor,
  shownKilometres,
  rowStretches,
  storedPosition,
} from "./geo.server";
export type { Coordinates, RowStretch } from "./geo.server";
export { coordinatesOfCity, timeZoneOfCity } from "./places.server";
export { TOO_OFTEN, positionChange, positionChangeLimit, positionForCity } from "./position.server";
