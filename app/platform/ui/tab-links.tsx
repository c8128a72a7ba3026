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
    <nav aria-label={label} className={`flex rounded-xl bg-stone-200 p-1 ${className}`}>
      {tabs.map((tab) => (
        <Link
          key={tab}
          to={hrefOf(tab)}
          aria-current={tab === current ? "page" : undefined}
          className={`flex-1 rounded-lg py-2 text-center font-semibold ${tab === current ? "bg-white shadow-sm" : "text-stone-700 hover:text-stone-900"}`}
        >
          {labelOf(tab)}
        </Link>
      ))}
    </nav>
  );
}
