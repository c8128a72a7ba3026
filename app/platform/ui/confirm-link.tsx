import { Form, Link } from "@remix-run/react";
import { useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

// Without JavaScript a link to a confirmation page (`to`, which answers POST); with it, a dialog posting the same form.
export function ConfirmLink({
  to,
  children,
  question,
  confirmLabel,
  className = "",
}: {
  to: string;
  children: ReactNode;
  question: string;
  confirmLabel: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <Link
        to={to}
        className={className}
        onClick={(event) => {
          if (!dialog.current?.showModal) return;
          event.preventDefault();
          dialog.current.showModal();
        }}
      >
        {children}
      </Link>
      <dialog ref={dialog} aria-label={question} className="m-auto max-w-sm rounded-2xl p-5 backdrop:bg-black/40">
        <p className="text-lg font-semibold">{question}</p>
        <Form
          method="post"
          action={to}
          className="mt-4 flex justify-end gap-2"
          onSubmit={() => dialog.current?.close()}
        >
          <button type="button" className="btn btn-secondary" onClick={() => dialog.current?.close()}>
            {t("confirm.cancel")}
          </button>
          <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800">
            {confirmLabel}
          </button>
        </Form>
      </dialog>
    </>
  );
}

export function ConfirmPage({
  question,
  detail,
  confirmLabel,
  cancelTo,
}: {
  question: string;
  detail?: string;
  confirmLabel: string;
  cancelTo: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="card mx-4 space-y-4">
      <h2 className="text-xl font-bold">{question}</h2>
      {detail ? <p className="text-stone-700">{detail}</p> : null}
      <Form method="post" className="flex justify-end gap-2">
        <Link to={cancelTo} className="btn btn-secondary">
          {t("confirm.cancel")}
        </Link>
        <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800">
          {confirmLabel}
        </button>
      </Form>
    </div>
  );
}
