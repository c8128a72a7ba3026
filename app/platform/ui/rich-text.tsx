import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** `[label](/path)` and `[label](#anchor)` become links; nothing else in a text is markup. */
const LINK = /\[([^\]]+)\]\(((?:\/|#)[^)\s]*)\)/g;

export function RichText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const [whole, label, target] = match;
    parts.push(text.slice(last, match.index));
    parts.push(
      target!.startsWith("#") ? (
        <a key={match.index} href={target} className="link">
          {label}
        </a>
      ) : (
        <Link key={match.index} to={target!} className="link">
          {label}
        </Link>
      ),
    );
    last = match.index + whole.length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}
