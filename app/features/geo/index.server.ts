export { boundingBox, closenessAt, closenessSql, coarsen, greatCircleKm, kilometresFor, shownKilometres, storedPosition } from "./geo.server";
export type { Coordinates } from "./geo.server";
export { coordinatesOfCity, timeZoneOfCity } from "./places.server";
export { TOO_OFTEN, positionChange, positionChangeLimit, positionForCity } from "./position.server";
