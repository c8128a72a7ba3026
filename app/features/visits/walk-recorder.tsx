import { useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "remix-utils/use-hydrated";

type Point = [number, number, number];

/** Positions closer than this to the last one kept add nothing to the line. */
const MIN_STEP_M = 5;
const MAX_POINTS = 1400;

function metres(a: Point, b: Point) {
  const rad = Math.PI / 180;
  const x = (b[1] - a[1]) * rad * Math.cos(((a[0] + b[0]) / 2) * rad);
  const y = (b[0] - a[0]) * rad;
  return Math.sqrt(x * x + y * y) * 6_371_000;
}

// Positions are read only between Start and Finish, and only while this page is open.
export function WalkRecorder() {
  const { t } = useTranslation("care");
  const hydrated = useHydrated();
  const submit = useSubmit();
  const [state, setState] = useState<"idle" | "recording" | "denied">("idle");
  const [points, setPoints] = useState<Point[]>([]);
  const watch = useRef<number | null>(null);
  const startedAt = useRef(0);

  useEffect(() => () => (watch.current !== null ? navigator.geolocation.clearWatch(watch.current) : undefined), []);

  if (!hydrated || typeof navigator === "undefined" || !("geolocation" in navigator)) return null;

  const start = () => {
    startedAt.current = Date.now();
    setPoints([]);
    setState("recording");
    watch.current = navigator.geolocation.watchPosition(
      (position) => {
        const point: Point = [
          position.coords.latitude,
          position.coords.longitude,
          Math.round((Date.now() - startedAt.current) / 1000),
        ];
        setPoints((kept) => {
          const last = kept.at(-1);
          if (kept.length >= MAX_POINTS || (last && metres(last, point) < MIN_STEP_M)) return kept;
          return [...kept, point];
        });
      },
      (error) => {
        // A position that is late or briefly unavailable is skipped; a refusal ends the recording.
        if (error.code !== error.PERMISSION_DENIED) return;
        stop();
        setState("denied");
      },
      { enableHighAccuracy: true, maximumAge: 0 },
    );
  };
  const stop = () => {
    if (watch.current !== null) navigator.geolocation.clearWatch(watch.current);
    watch.current = null;
  };
  const finish = () => {
    stop();
    setState("idle");
    const seconds = Math.max(1, Math.round((Date.now() - startedAt.current) / 1000));
    const route = points.length
      ? [...points, [...points.at(-1)!.slice(0, 2), Math.max(seconds, points.at(-1)![2])] as Point]
      : points;
    submit({ intent: "walk", route: JSON.stringify(route) }, { method: "post" });
  };
  const distance = points.slice(1).reduce((sum, point, index) => sum + metres(points[index]!, point), 0);

  return (
    <div className="space-y-2 rounded-xl bg-stone-50 p-3">
      {state === "recording" ? (
        <>
          <p role="status" className="text-sm">
            {t("walk.recording", { distance: (distance / 1000).toFixed(2), points: points.length })}
          </p>
          <button type="button" className="btn btn-primary w-full" onClick={finish} disabled={points.length < 2}>
            {t("walk.finish")}
          </button>
        </>
      ) : (
        <>
          {state === "denied" ? (
            <p role="alert" className="text-sm font-medium text-red-700">
              {t("walk.denied")}
            </p>
          ) : null}
          <button type="button" className="btn btn-primary w-full" onClick={start}>
            {t("walk.start")}
          </button>
          <p className="text-sm text-stone-600">{t("walk.privacy")}</p>
        </>
      )}
    </div>
  );
}
