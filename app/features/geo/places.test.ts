import { describe, expect, it } from "vitest";
import { placeKey } from "~db/places";
import { coordinatesOfCity } from "./places.server";

describe("places", () => {
  it("placeKey ignores case, accents, punctuation and extra spaces", () => {
    expect(placeKey("  KRAKÓW ")).toBe("krakow");
    expect(placeKey("Kraków")).toBe(placeKey("krakow"));
    expect(placeKey("Saint-Étienne")).toBe("saint etienne");
    expect(placeKey("A Coruña")).toBe("a coruna");
    expect(placeKey("São  Paulo")).toBe("sao paulo");
    expect(placeKey("  ")).toBe("");
  });

  it("finds a typed city in the gazetteer, whatever its spelling", async () => {
    const madrid = await coordinatesOfCity("Madrid", "Europe/Madrid");
    expect(madrid).not.toBeNull();
    expect(madrid!.latitude).toBeCloseTo(40.4, 1);
    expect(madrid!.longitude).toBeCloseTo(-3.7, 1);

    const accented = await coordinatesOfCity("kraków", "Europe/Warsaw");
    const plain = await coordinatesOfCity("Krakow", "Europe/Warsaw");
    expect(accented).not.toBeNull();
    expect(accented!.latitude).toBeCloseTo(50.06, 1);
    expect(accented!.longitude).toBeCloseTo(19.94, 1);
    expect(plain).toEqual(accented);
    // Someone in Spain typing a Polish city still finds it.
    expect(await coordinatesOfCity("Krakow", "Europe/Madrid")).toEqual(accented);

    expect(await coordinatesOfCity("  saint-etienne ", "Europe/Paris")).not.toBeNull();
    expect(await coordinatesOfCity("Atlantis-nowhere-xyz", "Europe/Madrid")).toBeNull();
    expect(await coordinatesOfCity("", "Europe/Madrid")).toBeNull();
  });

  it("'Valencia, Spain' and plain 'Valencia' are the Spanish Valencia for someone in Spain", async () => {
    for (const typed of ["Valencia, Spain", "Valencia", "valencia (spain)"]) {
      const valencia = await coordinatesOfCity(typed, "Europe/Madrid");
      expect(valencia, typed).not.toBeNull();
      expect(valencia!.latitude, typed).toBeCloseTo(39.47, 1);
      expect(valencia!.longitude, typed).toBeCloseTo(-0.38, 1);
    }
    // In Venezuela's time zone, Valencia is the Venezuelan one.
    expect((await coordinatesOfCity("Valencia", "America/Caracas"))!.latitude).toBeCloseTo(10.16, 1);
  });

  it("'Valencia, Spain' is the Spanish Valencia even for someone whose time zone is elsewhere", async () => {
    const valencia = await coordinatesOfCity("Valencia, Spain", "Europe/London");
    expect(valencia).not.toBeNull();
    expect(valencia!.latitude).toBeCloseTo(39.47, 1);
  });

  it("finds cities for time zones without a country (UTC) or without a time zone", async () => {
    for (const timeZone of ["UTC", "Etc/UTC", "Not/AZone", null]) {
      const madrid = await coordinatesOfCity("Madrid", timeZone);
      expect(madrid, String(timeZone)).not.toBeNull();
      expect(madrid!.latitude, String(timeZone)).toBeCloseTo(40.4, 1);
    }
  });
});
