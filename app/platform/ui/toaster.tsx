import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

export interface ToastMessage {
  type: "success" | "error" | "info";
  title: string;
  description?: string;
  values?: Record<string, string | number>;
}

const tone = {
  success: "bg-emerald-50 text-emerald-900 ring-emerald-200",
  error: "bg-red-50 text-red-900 ring-red-200",
  info: "bg-sky-50 text-sky-900 ring-sky-200",
};

// The live regions are always in the page, so a toast that appears after a navigation is announced.
export function Toaster({ toast }: { toast: ToastMessage | null }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(toast);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => {
    if (!toast) return;
    setVisible(toast);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setVisible(null), 6000);
  }, [toast]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const body = visible ? (
    <div className={`mx-auto flex max-w-md items-start gap-3 rounded-xl p-3 shadow-sm ring-1 ${tone[visible.type]}`}>
      <div className="flex-1">
        <p className="font-semibold">{t(visible.title, visible.values)}</p>
        {visible.description ? <p className="text-sm">{t(visible.description, visible.values)}</p> : null}
      </div>
    </div>
  ) : null;
  return (
    <div className="px-4 pt-3 empty:hidden">
      <div role="alert">{visible?.type === "error" ? body : null}</div>
      <div role="status">{visible && visible.type !== "error" ? body : null}</div>
    </div>
  );
}
