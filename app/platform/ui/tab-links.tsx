import { Link } from "@remix-run/react";

export function TabLinks<Tab extends string>({
  label,
  tabs,
  current,
  hrefOf,
  labelOf,
  className = "",
}: {
  label: string;
  tabs: readonly Tab[];
  current: Tab;
  hrefOf: (tab: Tab) => string;
  labelOf: (tab: Tab) => string;
  className?: string;
}) {
  return (
    // Tabs keep equal widths while they fit on one line; a language with longer words wraps them onto a
    // second row instead of squeezing them together or breaking a word.
    <nav aria-label={label} className={`flex flex-wrap rounded-xl bg-stone-200 p-1 ${className}`}>
      {tabs.map((tab) => (
        <Link
          key={tab}
          to={hrefOf(tab)}
          aria-current={tab === current ? "page" : undefined}
          className={`min-w-fit flex-1 rounded-lg px-2 py-2 text-center font-semibold whitespace-nowrap ${tab === current ? "bg-white shadow-sm" : "text-stone-700 hover:text-stone-900"}`}
        >
          {labelOf(tab)}
        </Link>
      ))}
    </nav>
  );
}
