import { useEffect, useRef } from "react";

const PLAYED_KEY = "trusted-sitters:sound-played";

export type SoundKind = "chime" | "like" | "match";

export const SOUNDS: Record<SoundKind, { notes: number[]; step: number; volume: number }> = {
  chime: { notes: [880, 1318.5], step: 0.14, volume: 0.15 },
  like: { notes: [660, 990], step: 0.07, volume: 0.1 },
  match: { notes: [523.25, 659.25, 783.99, 1046.5], step: 0.11, volume: 0.15 },
};

// Set by NotificationSound, which the signed-in layout always shows: the person's own off switch.
let soundsOn = false;

function play(kind: SoundKind) {
  const AudioContextClass = typeof window === "undefined" ? undefined : window.AudioContext;
  if (!AudioContextClass) return;
  const context = new AudioContextClass();
  const { notes, step, volume } = SOUNDS[kind];
  const start = context.currentTime + 0.02;
  notes.forEach((frequency, index) => {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    const at = start + index * step;
    oscillator.type = "sine";
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(volume, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + 0.32);
  });
  setTimeout(() => void context.close(), 1000 + notes.length * step * 1000);
}

// Browsers refuse sound before the person has touched the page: `userActivation` says they have.
export function soundAllowed(enabled: boolean, activation: { hasBeenActive: boolean } | undefined): boolean {
  return enabled && activation?.hasBeenActive === true;
}

/** For a like or a match, called from the gesture itself or from the page it led to. */
export function playSound(kind: Exclude<SoundKind, "chime">) {
  if (typeof navigator === "undefined" || !soundAllowed(soundsOn, navigator.userActivation)) return;
  play(kind);
}

export function NotificationSound({ unread, enabled }: { unread: number; enabled: boolean }) {
  const interacted = useRef(false);
  const wanted = enabled && unread > 0;
  const wantedRef = useRef(wanted);
  wantedRef.current = wanted;

  useEffect(() => {
    soundsOn = enabled;
  }, [enabled]);

  useEffect(() => {
    if (typeof window === "undefined" || !window.AudioContext) return;
    const tryPlay = () => {
      if (!interacted.current || !wantedRef.current || sessionStorage.getItem(PLAYED_KEY)) return;
      sessionStorage.setItem(PLAYED_KEY, "1");
      play("chime");
    };
    const onGesture = () => {
      interacted.current = true;
      tryPlay();
    };
    window.addEventListener("pointerdown", onGesture, { once: true });
    window.addEventListener("keydown", onGesture, { once: true });
    tryPlay();
    return () => {
      window.removeEventListener("pointerdown", onGesture);
      window.removeEventListener("keydown", onGesture);
    };
  }, [wanted]);
  return null;
}
