import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "remix-utils/use-hydrated";
import type { DeckTab } from "./deck.server";
import { playSound } from "~/features/notifications";
import { cardKey, DeckCardDetails, DeckCardView, type ShownCard } from "./deck-card";

export const DECIDE_PX = 100;
export const OVERLAY_PX = 50;
export const PHOTO_PX = 50;

type Decision = "like" | "pass";

export function SwipeDeck({
  cards,
  tab,
  initialPhoto,
  paused,
}: {
  cards: ShownCard[];
  tab: DeckTab;
  initialPhoto: number;
  paused: boolean;
}) {
  const { t } = useTranslation("discovery");
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const [gone, setGone] = useState<string[]>([]);
  const [drag, setDrag] = useState<{ x: number; y: number } | null>(null);
  const [leaving, setLeaving] = useState<Decision | null>(null);
  const [shown, setShown] = useState<{ key: string | null; index: number }>({ key: null, index: initialPhoto });
  const start = useRef<{ x: number; y: number; pointer: number } | null>(null);

  const visible = cards.filter((card) => !gone.includes(cardKey(card)));
  const top = visible[0];
  const behind = visible[1];
  const topKey = top ? cardKey(top) : null;
  const photo = shown.key === topKey || (shown.key === null && top === cards[0]) ? shown.index : 0;
  const setPhoto = (index: number) => setShown({ key: topKey, index });
  const waiting = visible
    .slice(1)
    .map((card) => card.photos[0]?.cardUrl ?? "")
    .join(" ");

  useEffect(() => setGone((keys) => keys.filter((key) => cards.some((card) => cardKey(card) === key))), [cards]);
  // Once the choices sent are answered and the deck reloaded, a card the server still deals was
  // refused (the daily like limit, say): it comes back, beside the message saying why.
  const sending = fetcher.state !== "idle";
  const wasSending = useRef(false);
  useEffect(() => {
    if (wasSending.current && !sending)
      setGone((keys) => keys.filter((key) => !cards.some((card) => cardKey(card) === key)));
    wasSending.current = sending;
  }, [sending, cards]);
  useEffect(() => {
    for (const url of waiting.split(" ").filter(Boolean)) new Image().src = url;
  }, [waiting]);

  function decide(decision: Decision) {
    if (!top || leaving) return;
    if (decision === "like") playSound("like");
    setLeaving(decision);
    const sent = { intent: decision, userId: top.userId, petId: top.petId ?? "", tab };
    window.setTimeout(() => {
      setGone((keys) => [...keys, cardKey(top)]);
      setLeaving(null);
      setDrag(null);
      fetcher.submit(sent, { method: "post", action: "/dashboard" });
    }, 220);
  }

  useEffect(() => {
    if (paused) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      const target = event.target as HTMLElement;
      if (target.closest("input, textarea, select, [contenteditable], dialog")) return;
      if (event.key === "ArrowRight") decide("like");
      else if (event.key === "ArrowLeft") decide("pass");
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  function onPointerDown(event: ReactPointerEvent<HTMLDivElement>) {
    if (event.button !== 0 || leaving || (event.target as HTMLElement).closest("a, button")) return;
    start.current = { x: event.clientX, y: event.clientY, pointer: event.pointerId };
    event.currentTarget.setPointerCapture(event.pointerId);
  }
  function onPointerMove(event: ReactPointerEvent<HTMLDivElement>) {
    if (!start.current || start.current.pointer !== event.pointerId) return;
    setDrag({ x: event.clientX - start.current.x, y: event.clientY - start.current.y });
  }
  function onPointerUp(event: ReactPointerEvent<HTMLDivElement>) {
    if (!start.current || start.current.pointer !== event.pointerId) return;
    const x = event.clientX - start.current.x;
    const y = event.clientY - start.current.y;
    start.current = null;
    if (Math.abs(x) > DECIDE_PX) return decide(x > 0 ? "like" : "pass");
    if (top && Math.abs(y) > PHOTO_PX && Math.abs(y) > Math.abs(x)) {
      setPhoto(Math.min(Math.max(photo + (y < 0 ? 1 : -1), 0), Math.max(top.photos.length - 1, 0)));
    }
    setDrag(null);
  }

  if (!top) return null;
  const x = leaving ? (leaving === "like" ? 1 : -1) * window.innerWidth * 1.5 : (drag?.x ?? 0);
  const y = leaving ? 0 : (drag?.y ?? 0) * 0.2;
  const stamp: Decision | null = leaving ?? (x > OVERLAY_PX ? "like" : x < -OVERLAY_PX ? "pass" : null);
  const photoHref = (index: number) => `/dashboard?${new URLSearchParams({ tab, photo: String(index) })}`;

  return (
    <div className="space-y-2">
      <div className="relative">
        {behind ? (
          <div
            aria-hidden
            className="pointer-events-none absolute inset-0 scale-95 opacity-70"
            key={`behind-${cardKey(behind)}`}
          >
            <DeckCardView card={behind} photoIndex={0} withDetails={false} priority="low" />
          </div>
        ) : null}
        <div
          key={cardKey(top)}
          data-testid="top-card"
          className="relative touch-none"
          style={{
            transform: `translate(${x}px, ${y}px) rotate(${x / 18}deg)`,
            transition: drag && !leaving ? "none" : "transform 220ms ease-out",
          }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => {
            start.current = null;
            setDrag(null);
          }}
        >
          <DeckCardView
            card={top}
            photoIndex={photo}
            photoHref={photoHref}
            onPhoto={setPhoto}
            headingId="top-card-name"
            withDetails={false}
            priority="high"
          >
            {stamp ? (
              <span
                className={`absolute top-8 ${stamp === "like" ? "left-6 -rotate-12 border-emerald-500 text-emerald-600" : "right-6 rotate-12 border-red-600 text-red-700"} rounded-lg border-4 bg-white/85 px-3 py-1 text-3xl font-black tracking-widest`}
              >
                {stamp === "like" ? t("deck.likeStamp") : t("deck.passStamp")}
              </span>
            ) : null}
          </DeckCardView>
        </div>
      </div>

      <form
        key={cardKey(top)}
        method="post"
        action="/dashboard"
        className="flex items-center justify-center gap-5"
        onSubmit={(event) => {
          const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
          if (submitter?.value !== "like" && submitter?.value !== "pass") return;
          event.preventDefault();
          decide(submitter.value);
        }}
      >
        <input type="hidden" name="userId" value={top.userId} />
        <input type="hidden" name="petId" value={top.petId ?? ""} />
        <input type="hidden" name="tab" value={tab} />
        <button
          type="submit"
          name="intent"
          value="pass"
          aria-keyshortcuts="ArrowLeft"
          className="flex size-16 items-center justify-center rounded-full bg-white text-red-700 shadow-md ring-1 ring-stone-200 hover:bg-red-50"
        >
          <svg aria-hidden viewBox="0 0 24 24" className="size-8" fill="none" stroke="currentColor" strokeWidth="2.5">
            <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
          </svg>
          <span className="sr-only">{t("deck.pass", { name: top.name })}</span>
        </button>
        <a
          href={`/users/${top.userId}`}
          className="flex size-12 items-center justify-center rounded-full bg-white text-sky-800 shadow-md ring-1 ring-stone-200 hover:bg-sky-50"
        >
          <svg aria-hidden viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2.5">
            <circle cx="12" cy="12" r="9" />
            <path d="M12 11v6M12 7.5v.5" strokeLinecap="round" />
          </svg>
          <span className="sr-only">{t("deck.info", { name: top.kind === "pet" ? top.ownerName : top.name })}</span>
        </a>
        <button
          type="submit"
          name="intent"
          value="like"
          aria-keyshortcuts="ArrowRight"
          className="flex size-16 items-center justify-center rounded-full bg-white text-emerald-700 shadow-md ring-1 ring-stone-200 hover:bg-emerald-50"
        >
          <svg aria-hidden viewBox="0 0 24 24" className="size-8" fill="currentColor">
            <path d="M12 21s-7.5-4.6-9.6-9.2C1 8.6 3 5 6.6 5c2.1 0 3.6 1.2 5.4 3.1C13.8 6.2 15.3 5 17.4 5 21 5 23 8.6 21.6 11.8 19.5 16.4 12 21 12 21z" />
          </svg>
          <span className="sr-only">{t("deck.like", { name: top.name })}</span>
        </button>
      </form>
      {hydrated ? (
        <p className="hidden text-center text-sm text-stone-600 [@media(hover:hover)_and_(pointer:fine)]:block">
          {t("deck.keyboardHint")}
        </p>
      ) : null}
      <div className="rounded-2xl bg-white p-4 ring-1 ring-stone-200" data-testid="top-card-details">
        <DeckCardDetails card={top} />
      </div>
    </div>
  );
}
