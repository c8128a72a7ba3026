import { useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";

export function SubmitButton({
  children,
  name,
  value,
  variant = "primary",
  className = "",
}: {
  children: ReactNode;
  name?: string;
  value?: string;
  variant?: "primary" | "secondary";
  className?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && (name === undefined || navigation.formData?.get(name) === value);
  return (
    <button
      type="submit"
      name={name}
      value={value}
      disabled={busy}
      aria-busy={busy}
      className={`btn ${variant === "primary" ? "btn-primary" : "btn-secondary"} ${className}`}
    >
      {busy ? (
        <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" />
      ) : null}
      {children}
    </button>
  );
}
