import { useTranslation } from "react-i18next";
import { playSound } from "~/features/notifications";

/** Inside a POST form of the page, whose action calls handleLikeBack. */
export function LikeBackButton({ userId, name }: { userId: string; name: string }) {
  const { t } = useTranslation("discovery");
  return (
    <>
      <input type="hidden" name="userId" value={userId} />
      <button
        type="submit"
        name="intent"
        value="like-back"
        className="btn btn-primary gap-1.5"
        onClick={() => playSound("like")}
      >
        <svg aria-hidden viewBox="0 0 24 24" className="size-5" fill="currentColor">
          <path d="M12 21s-7.5-4.6-9.6-9.2C1 8.6 3 5 6.6 5c2.1 0 3.6 1.2 5.4 3.1C13.8 6.2 15.3 5 17.4 5 21 5 23 8.6 21.6 11.8 19.5 16.4 12 21 12 21z" />
        </svg>
        {t("likeBack.button")}
        <span className="sr-only">{name}</span>
      </button>
    </>
  );
}
