import { Link, useFetcher, useRevalidator } from "@remix-run/react";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CHAT_FILE_MAX_BYTES, CHAT_FILE_TYPES } from "~/features/media";
import { MESSAGE_MAX } from "./limits";
import type { ShownMessage } from "./text";

function fileProblem(file: File): string | null {
  if (!(CHAT_FILE_TYPES as readonly string[]).includes(file.type)) return "errors.invalidType";
  if (file.size > CHAT_FILE_MAX_BYTES) return "errors.tooLarge";
  return null;
}

/** Sends a message with a file to /messages/send, reporting the share of the body sent so far. */
function useUpload(conversationId: string) {
  const revalidator = useRevalidator();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const request = useRef<XMLHttpRequest | null>(null);
  useEffect(() => () => request.current?.abort(), [conversationId]);
  return {
    progress,
    error,
    supported: () => typeof XMLHttpRequest !== "undefined",
    forget: () => setError(null),
    send(body: FormData, sent: () => void) {
      const xhr = new XMLHttpRequest();
      request.current = xhr;
      setError(null);
      setProgress(0);
      xhr.upload.addEventListener("progress", (event) => {
        if (event.lengthComputable) setProgress(event.loaded / event.total);
      });
      xhr.addEventListener("loadend", () => {
        request.current = null;
        setProgress(null);
        let answer: { sent?: boolean; error?: string } = {};
        try {
          answer = JSON.parse(xhr.responseText) as typeof answer;
        } catch {
          // Not our answer (a sign-in page after the session ended, a proxy's page, a dropped connection).
        }
        if (xhr.status === 200 && answer.sent === true) {
          sent();
          revalidator.revalidate();
        } else setError(answer.error ?? (xhr.status === 413 ? "messages:errors.tooLarge" : "messages:errors.send"));
      });
      xhr.open("POST", "/messages/send");
      xhr.send(body);
    },
  };
}

export interface ChatConversation {
  id: string;
  messages: ShownMessage[];
  /** Older messages exist before the first one shown. */
  earlier: boolean;
  seenId: number | null;
  /** Set when the page shows an older stretch (an "Earlier messages" link followed without JavaScript). */
  before: number | null;
  /** Blocked or suspended: the history shows, nothing new can be sent. */
  closed?: boolean;
}

// The server renders no layout effects (and says so): the scroll is only ever kept in a browser.
const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

type OlderPage = { open: { messages: ShownMessage[]; earlier: boolean } | null };

/** Earlier messages loaded in place and the page's own (newest) ones, each once, oldest first. */
function joined(older: ShownMessage[], newest: ShownMessage[]): ShownMessage[] {
  const seen = new Set(newest.map((message) => message.id));
  return [...older.filter((message) => !seen.has(message.id)), ...newest].sort((one, two) => one.id - two.id);
}

export function Chat({ conversation, error }: { conversation: ChatConversation; error?: string }) {
  const { t } = useTranslation("messages");
  const conversationId = conversation.id;
  const closed = conversation.closed ?? false;
  const fetcher = useFetcher<{ error?: string }>();
  // A new fetcher for each older page: one whose data has been taken in is let go, so live updates do not fetch it again.
  const [olderLoads, setOlderLoads] = useState(0);
  const olderFetcher = useFetcher<OlderPage>({ key: `older-messages-${conversation.id}-${olderLoads}` });
  const [older, setOlder] = useState<{ messages: ShownMessage[]; earlier: boolean } | null>(null);
  const messages = older ? joined(older.messages, conversation.messages) : conversation.messages;
  const earlier = older ? older.earlier : conversation.earlier;
  const log = useRef<HTMLDivElement>(null);
  // The distance from the bottom before older messages were put above, so what was on screen stays put.
  const keptFromBottom = useRef<number | null>(null);
  const upload = useUpload(conversationId);
  const [text, setText] = useState("");
  const [file, setFile] = useState<{ url: string; type: "image" | "video"; name: string } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  // A sent message answers with no data, so a refusal stops showing once the person sends again or picks another file.
  const [answered, setAnswered] = useState<object | undefined>(undefined);
  const fileInput = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const sending = fetcher.state !== "idle" || upload.progress !== null;
  const pending = fetcher.state !== "idle" ? String(fetcher.formData?.get("body") ?? "").trim() : "";
  const newestId = conversation.messages.at(-1)?.id;
  const newestMessages = useRef(conversation.messages);
  newestMessages.current = conversation.messages;

  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView({ block: "end" });
  }, [newestId, pending]);

  useEffect(() => {
    const page = olderFetcher.data?.open;
    if (olderFetcher.state !== "idle" || !page) return;
    // Everything on screen is kept with the older page: a later reload of the newest page may no longer include the oldest of them.
    setOlder((current) => ({
      messages: joined(page.messages, joined(current?.messages ?? [], newestMessages.current)),
      earlier: page.earlier,
    }));
    setOlderLoads((count) => count + 1);
  }, [olderFetcher.state, olderFetcher.data]);

  useBrowserLayoutEffect(() => {
    const element = log.current;
    if (!element || keptFromBottom.current === null) return;
    element.scrollTop = element.scrollHeight - keptFromBottom.current;
    keptFromBottom.current = null;
  }, [older]);
  useEffect(() => () => (file ? URL.revokeObjectURL(file.url) : undefined), [file]);

  const clearFile = () => {
    setFile(null);
    if (fileInput.current) fileInput.current.value = "";
  };
  const refusal = fetcher.data !== answered ? fetcher.data?.error : undefined;
  const shownError =
    fileError ??
    upload.error?.replace(/^messages:/, "") ??
    (refusal ? refusal.replace(/^messages:/, "") : null) ??
    (error ? error.replace(/^messages:/, "") : null);
  const firstId = messages[0]?.id;
  const earlierHref = earlier && firstId !== undefined ? `/messages?c=${conversationId}&before=${firstId}` : null;

  let lastDay = "";
  return (
    <div className="flex h-[600px] max-h-[calc(100dvh-12rem)] flex-col">
      {/* Focusable, so a long conversation scrolls with the keyboard too. */}
      <div
        ref={log}
        role="log"
        aria-live="polite"
        aria-label={t("chat.log")}
        tabIndex={0}
        className="flex-1 overflow-y-auto p-3"
      >
        {earlierHref ? (
          <p className="pb-2 text-center">
            <Link
              to={earlierHref}
              className="link text-sm"
              aria-busy={olderFetcher.state !== "idle"}
              onClick={(event) => {
                // With JavaScript the older page is put above in place; the link stays for everyone else.
                event.preventDefault();
                if (olderFetcher.state !== "idle") return;
                const element = log.current;
                keptFromBottom.current = element ? element.scrollHeight - element.scrollTop : null;
                olderFetcher.load(earlierHref);
              }}
            >
              {t("chat.earlier")}
            </Link>
          </p>
        ) : null}
        {messages.length === 0 && !pending ? (
          <p className="py-8 text-center text-stone-700">{t("chat.empty")}</p>
        ) : null}
        <ol ref={list} className="space-y-2">
          {messages.map((message) => {
            const showDay = message.day !== lastDay;
            lastDay = message.day;
            return (
              <li key={message.id} className="space-y-2">
                {showDay ? <p className="text-center text-xs font-semibold text-stone-600">{message.day}</p> : null}
                <div className={`flex ${message.mine ? "justify-end" : "justify-start"}`}>
                  <div
                    className={`max-w-[80%] rounded-2xl px-3 py-2 ${message.mine ? "bg-brand-700 text-white" : "bg-white text-stone-900 ring-1 ring-stone-200"}`}
                  >
                    <span className="sr-only">{message.mine ? t("chat.you") : t("chat.them")}: </span>
                    {message.media?.type === "image" ? (
                      <a href={message.media.url} target="_blank" rel="noreferrer" className="mb-1 block">
                        <img
                          src={message.media.previewUrl}
                          alt={t("chat.imageAlt")}
                          loading="lazy"
                          className="max-h-64 rounded-xl"
                        />
                      </a>
                    ) : null}
                    {message.media?.type === "video" ? (
                      <video
                        src={message.media.url}
                        controls
                        preload="metadata"
                        aria-label={t("chat.videoLabel")}
                        className="mb-1 max-h-64 rounded-xl"
                      />
                    ) : null}
                    {message.removed ? (
                      <p className="italic">{t("safety:removed")}</p>
                    ) : (
                      <p className="break-words whitespace-pre-line">{message.body}</p>
                    )}
                    {message.link ? (
                      <a
                        href={message.link}
                        className={`mt-1 block font-semibold underline ${message.mine ? "text-white" : "text-brand-800"}`}
                      >
                        {t("care:chatCard.open")}
                      </a>
                    ) : null}
                    <p className={`text-right text-xs ${message.mine ? "text-brand-50" : "text-stone-600"}`}>
                      {message.time}
                    </p>
                    {!message.mine && !message.removed ? (
                      <Link
                        to={`/report/message/${message.id}?back=${encodeURIComponent(`/messages?c=${conversationId}`)}`}
                        className="text-xs font-semibold text-stone-700 underline"
                      >
                        {t("safety:report.link.message")}
                      </Link>
                    ) : null}
                  </div>
                </div>
                {message.mine && message.id === conversation.seenId ? (
                  <p className="text-right text-xs font-semibold text-stone-600">{t("chat.seen")}</p>
                ) : null}
              </li>
            );
          })}
          {pending ? (
            <li className="flex justify-end" aria-hidden>
              <div className="max-w-[80%] rounded-2xl border-2 border-dashed border-brand-100 bg-brand-700 px-3 py-2 text-white">
                <p className="break-words whitespace-pre-line">{pending}</p>
              </div>
            </li>
          ) : null}
        </ol>
        {conversation.before !== null ? (
          <p className="pt-2 text-center">
            <Link to={`/messages?c=${conversationId}`} className="link text-sm">
              {t("chat.latest")}
            </Link>
          </p>
        ) : null}
      </div>
      {shownError ? (
        <p id="chat-error" role="alert" className="mx-3 rounded-xl bg-red-50 p-2 text-sm text-red-800">
          {t(shownError)}
        </p>
      ) : null}
      {file ? (
        <div className="mx-3 mt-2 flex items-center gap-3 rounded-xl bg-stone-100 p-2">
          {file.type === "image" ? (
            <img src={file.url} alt={t("chat.previewAlt")} className="size-14 rounded-lg object-cover" />
          ) : (
            <span className="text-2xl" aria-hidden>
              🎥
            </span>
          )}
          <span className="min-w-0 flex-1 truncate text-sm">{file.name}</span>
          <button type="button" onClick={clearFile} className="btn btn-secondary min-h-11 text-sm">
            {t("chat.removeFile")}
          </button>
        </div>
      ) : null}
      {upload.progress !== null ? (
        <div className="mx-3 mt-2 space-y-1">
          <label htmlFor="upload-progress" className="block text-sm text-stone-800">
            {t("chat.uploading", { percent: Math.round(upload.progress * 100) })}
          </label>
          <progress id="upload-progress" value={upload.progress} max={1} className="h-2 w-full accent-brand-700" />
        </div>
      ) : null}
      {closed ? (
        <p className="border-t border-stone-200 p-3 text-center text-sm font-medium text-stone-700">
          {t("safety:chat.closed")}
        </p>
      ) : (
        <fetcher.Form
          method="post"
          encType="multipart/form-data"
          className="flex flex-wrap items-end gap-2 border-t border-stone-200 p-3"
          onSubmit={(event) => {
            if ((!text.trim() && !file) || sending) {
              event.preventDefault();
              return;
            }
            setAnswered(fetcher.data);
            if (file && upload.supported()) {
              // A file goes by XMLHttpRequest, the one browser API that reports how much of a body has been sent.
              event.preventDefault();
              setFileError(null);
              upload.send(new FormData(event.currentTarget), () => {
                setText("");
                clearFile();
              });
              return;
            }
            setTimeout(() => {
              setText("");
              clearFile();
            }, 0);
          }}
        >
          <input type="hidden" name="conversationId" value={conversationId} />
          <label htmlFor="message-attachment" className="sr-only">
            {t("chat.attach")}
          </label>
          <input
            id="message-attachment"
            ref={fileInput}
            type="file"
            name="attachment"
            accept={CHAT_FILE_TYPES.join(",")}
            aria-describedby={shownError ? "chat-error" : undefined}
            className="block w-full text-sm text-stone-700 file:mr-3 file:min-h-10 file:rounded-xl file:border-0 file:bg-brand-100 file:px-3 file:font-semibold file:text-brand-800"
            onChange={(event) => {
              const chosen = event.currentTarget.files?.[0];
              const problem = chosen ? fileProblem(chosen) : null;
              setFileError(problem);
              upload.forget();
              setAnswered(fetcher.data);
              if (!chosen || problem) {
                clearFile();
                return;
              }
              setFile({
                url: URL.createObjectURL(chosen),
                type: chosen.type.startsWith("image/") ? "image" : "video",
                name: chosen.name,
              });
            }}
          />
          <label htmlFor="message-body" className="sr-only">
            {t("chat.label")}
          </label>
          <textarea
            id="message-body"
            name="body"
            rows={1}
            maxLength={MESSAGE_MAX}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
            placeholder={t("chat.placeholder")}
            className="input min-h-11 flex-1 resize-none"
          />
          <button type="submit" className="btn btn-primary" disabled={sending} aria-busy={sending}>
            {t("chat.send")}
          </button>
        </fetcher.Form>
      )}
    </div>
  );
}
