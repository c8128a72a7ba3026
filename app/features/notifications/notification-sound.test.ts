import { describe, expect, it } from "vitest";
import { SOUNDS, soundAllowed } from "./notification-sound";

describe("sounds", () => {
  it("play only when switched on and after the person has touched the page", () => {
    expect(soundAllowed(true, { hasBeenActive: true })).toBe(true);
    expect(soundAllowed(false, { hasBeenActive: true })).toBe(false);
    expect(soundAllowed(true, { hasBeenActive: false })).toBe(false);
    expect(soundAllowed(true, undefined)).toBe(false);
  });

  it("a like is short and quiet, a match is longer than the chime", () => {
    expect(SOUNDS.like.notes.length * SOUNDS.like.step).toBeLessThan(SOUNDS.chime.notes.length * SOUNDS.chime.step);
    expect(SOUNDS.match.notes.length).toBeGreaterThan(SOUNDS.chime.notes.length);
    expect(SOUNDS.like.volume).toBeLessThanOrEqual(SOUNDS.chime.volume);
  });
});
