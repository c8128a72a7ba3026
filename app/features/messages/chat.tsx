import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CHAT_FILE_MAX_BYTES, CHAT_FILE_TYPES } from "~/features/media";
import { MESSAGE_MAX } from "./schema";
import type { ShownMessage } from "./text";

function fileProblem(file: File): string | null {
  if (!(CHAT_FILE_TYPES as readonly string[]).includes(file.type)) return "errors.invalidType";
  if (file.size > CHAT_FILE_MAX_BYTES) return "errors.tooLarge";
  return null;
}

export function Chat({
  conversationId,
  messages,
  error,
}: {
  conversationId: string;
  messages: ShownMessage[];
  error?: string;
}) {
  const { t } = useTranslation("messages");
  const fetcher = useFetcher<{ error?: string }>();
  const [text, setText] = useState("");
  const [file, setFile] = useState<{ url: string; type: "image" | "video"; name: string } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  // A sent message answers with no data, so a refusal stops showing once the person sends again or picks another file.
  const [answered, setAnswered] = useState<object | undefined>(undefined);
  const fileInput = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const sending = fetcher.state !== "idle";
  const pending = sending ? String(fetcher.formData?.get("body") ?? "").trim() : "";

  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView({ block: "end" });
  }, [messages.length, pending]);
  useEffect(() => () => (file ? URL.revokeObjectURL(file.url) : undefined), [file]);

  const clearFile = () => {
    setFile(null);
    if (fileInput.current) fileInput.current.value = "";
  };
  const refusal = fetcher.data !== answered ? fetcher.data?.error : undefined;
  const shownError = fileError ?? (refusal ? refusal.replace(/^messages:/, "") : null) ?? (error ? error.replace(/^messages:/, "") : null);

  let lastDay = "";
  return (
    <div className="flex h-[600px] max-h-[calc(100dvh-12rem)] flex-col">
      <div role="log" aria-live="polite" aria-label={t("chat.log")} className="flex-1 overflow-y-auto p-3">
        {messages.length === 0 && !pending ? <p className="py-8 text-center text-stone-700">{t("chat.empty")}</p> : null}
        <ol ref={list} className="space-y-2">
          {messages.map((message) => {
            const showDay = message.day !== lastDay;
            lastDay = message.day;
            return (
              <li key={message.id} className="space-y-2">
                {showDay ? <p className="text-center text-xs font-semibold text-stone-600">{message.day}</p> : null}
                <div className={`flex ${message.mine ? "justify-end" : "justify-start"}`}>
                  <div className={`max-w-[80%] rounded-2xl px-3 py-2 ${message.mine ? "bg-brand-700 text-white" : "bg-white text-stone-900 ring-1 ring-stone-200"}`}>
                    <span className="sr-only">{message.mine ? t("chat.you") : t("chat.them")}: </span>
                    {message.media?.type === "image" ? (
                      <a href={message.media.url} target="_blank" rel="noreferrer" className="mb-1 block">
                        <img src={message.media.previewUrl} alt={t("chat.imageAlt")} loading="lazy" className="max-h-64 rounded-xl" />
                      </a>
                    ) : null}
                    {message.media?.type === "video" ? (
                      <video src={message.media.url} controls preload="metadata" aria-label={t("chat.videoLabel")} className="mb-1 max-h-64 rounded-xl" />
                    ) : null}
                    <p className="break-words whitespace-pre-line">{message.body}</p>
                    {message.link ? (
                      <a href={message.link} className={`mt-1 block font-semibold underline ${message.mine ? "text-white" : "text-brand-800"}`}>
                        {t("care:chatCard.open")}
                      </a>
                    ) : null}
                    <p className={`text-right text-xs ${message.mine ? "text-brand-50" : "text-stone-600"}`}>{message.time}</p>
                  </div>
                </div>
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
      </div>
      {shownError ? (
        <p id="chat-error" role="alert" className="mx-3 rounded-xl bg-red-50 p-2 text-sm text-red-800">
          {t(shownError)}
        </p>
      ) : null}
      {file ? (
        <div className="mx-3 mt-2 flex items-center gap-3 rounded-xl bg-stone-100 p-2">
          {file.type === "image" ? <img src={file.url} alt={t("chat.previewAlt")} className="size-14 rounded-lg object-cover" /> : <span className="text-2xl" aria-hidden>🎥</span>}
          <span className="min-w-0 flex-1 truncate text-sm">{file.name}</span>
          <button type="button" onClick={clearFile} className="btn btn-secondary min-h-11 text-sm">
            {t("chat.removeFile")}
          </button>
        </div>
      ) : null}
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
              setAnswered(fetcher.data);
              if (!chosen || problem) {
                clearFile();
                return;
              }
              setFile({ url: URL.createObjectURL(chosen), type: chosen.type.startsWith("image/") ? "image" : "video", name: chosen.name });
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
    </div>
  );
}
