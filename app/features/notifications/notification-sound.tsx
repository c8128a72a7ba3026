import { useEffect, useRef } from "react";

const PLAYED_KEY = "trusted-sitters:sound-played";

function chime(context: AudioContext) {
  const start = context.currentTime + 0.02;
  [880, 1318.5].forEach((frequency, index) => {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    const at = start + index * 0.14;
    oscillator.type = "sine";
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + 0.32);
  });
}

// Browsers refuse sound before the person has touched the page, so it waits for their first tap or key.
export function NotificationSound({ unread, enabled }: { unread: number; enabled: boolean }) {
  const interacted = useRef(false);
  const wanted = enabled && unread > 0;
  const wantedRef = useRef(wanted);
  wantedRef.current = wanted;

  useEffect(() => {
    const AudioContextClass = typeof window === "undefined" ? undefined : window.AudioContext;
    if (!AudioContextClass) return;
    const tryPlay = () => {
      if (!interacted.current || !wantedRef.current || sessionStorage.getItem(PLAYED_KEY)) return;
      sessionStorage.setItem(PLAYED_KEY, "1");
      const context = new AudioContextClass();
      chime(context);
      setTimeout(() => void context.close(), 1000);
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
