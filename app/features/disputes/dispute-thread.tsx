import { useTranslation } from "react-i18next";

export interface ShownPost {
  id: string;
  side: "owner" | "sitter" | "operator";
  authorName: string;
  body: string;
  createdAt: string;
  when: string;
  photos: { cardUrl: string; fullUrl: string; width: number; height: number }[];
}

/** Both sides' words and photos, oldest first. People's words are shown as text, never as markup. */
export function DisputeThread({ posts }: { posts: ShownPost[] }) {
  const { t } = useTranslation("disputes");
  if (posts.length === 0) return <p className="text-stone-700">{t("thread.empty")}</p>;
  return (
    <ol className="space-y-3" aria-label={t("thread.title")}>
      {posts.map((post) => (
        <li
          key={post.id}
          className={`card space-y-2 ${post.side === "sitter" ? "bg-sky-50" : post.side === "operator" ? "bg-amber-50" : ""}`}
        >
          <p className="text-sm font-semibold">
            {t(`thread.side.${post.side}`, { name: post.authorName })}{" "}
            <time dateTime={post.createdAt} className="font-normal text-stone-600">
              {post.when}
            </time>
          </p>
          <p className="break-words whitespace-pre-line">{post.body}</p>
          {post.photos.length > 0 ? (
            <ul className="grid grid-cols-3 gap-2">
              {post.photos.map((photo, index) => (
                <li key={photo.cardUrl}>
                  <a href={photo.fullUrl} target="_blank" rel="noreferrer">
                    <img
                      src={photo.cardUrl}
                      width={photo.width}
                      height={photo.height}
                      loading="lazy"
                      alt={t("thread.photoAlt", { number: index + 1, name: post.authorName })}
                      className="aspect-square w-full rounded-lg object-cover"
                    />
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
