import { Fragment, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LegalLinks } from "~/platform/ui/legal-links";
import { RichText } from "~/platform/ui/rich-text";
import { PageHeader } from "~/platform/ui/page-header";
import type { LegalDocument } from "./documents.server";

type Block = LegalDocument["intro"][number];

function Blocks({ blocks }: { blocks: Block[] }) {
  return (
    <>
      {blocks.map((block, index) =>
        typeof block === "string" ? (
          <p key={index}>
            <RichText text={block} />
          </p>
        ) : (
          <ul key={index} className="list-disc space-y-1 pl-6">
            {block.map((item, itemIndex) => (
              <li key={itemIndex}>
                <RichText text={item} />
              </li>
            ))}
          </ul>
        ),
      )}
    </>
  );
}

export function LegalShell({
  title,
  updated,
  children,
}: {
  title: string;
  updated: string | null;
  children: ReactNode;
}) {
  const { t } = useTranslation("legal");
  return (
    <main id="main" className="mx-auto max-w-2xl pb-4">
      <PageHeader title={title} backTo="/" />
      <div className="space-y-6 px-4 leading-relaxed text-stone-800">
        {updated ? <p className="text-sm text-stone-700">{t("updated", { date: updated })}</p> : null}
        {children}
      </div>
      <LegalLinks className="mt-8 border-t border-stone-200" />
    </main>
  );
}

export type LegalPageData = { title: string; updated: string; document: LegalDocument };

export function LegalDocumentPage({ title, updated, document, children }: LegalPageData & { children?: ReactNode }) {
  const { t } = useTranslation("legal");
  return (
    <LegalShell title={title} updated={updated}>
      <div className="space-y-3">
        <Blocks blocks={document.intro} />
      </div>
      {children}
      <nav aria-labelledby="toc-heading" className="card">
        <h2 id="toc-heading" className="text-lg font-bold">
          {t("toc")}
        </h2>
        <ol className="mt-2 list-decimal space-y-1 pl-6">
          {document.sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="link">
                {section.heading}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {document.sections.map((section, index) => (
        <section
          key={section.id}
          id={section.id}
          aria-labelledby={`${section.id}-heading`}
          className="scroll-mt-4 space-y-3"
        >
          <h2 id={`${section.id}-heading`} className="text-xl font-bold text-stone-900">
            {index + 1}. {section.heading}
          </h2>
          <Blocks blocks={section.body} />
          {section.table ? (
            // Fixed columns that wrap long words, so the table never scrolls sideways on a phone.
            <table className="w-full table-fixed border-collapse text-left text-sm break-words hyphens-auto">
              <caption className="pb-2 text-left font-semibold">{section.table.caption}</caption>
              <thead>
                <tr>
                  {section.table.head.map((cell, cellIndex) => (
                    <th
                      key={cell}
                      scope="col"
                      className={`border-b border-stone-300 p-2 align-bottom ${cellIndex === 1 ? "w-[45%]" : ""}`}
                    >
                      {cell}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {section.table.rows.map((row) => (
                  <tr key={row[0]} className="border-b border-stone-200 align-top">
                    {row.map((cell, cellIndex) =>
                      cellIndex === 0 ? (
                        <th key={cellIndex} scope="row" className="p-2 font-mono text-xs [overflow-wrap:anywhere]">
                          {cell}
                        </th>
                      ) : (
                        <td key={cellIndex} className="p-2">
                          <RichText text={cell} />
                        </td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {section.after ? <Blocks blocks={section.after} /> : null}
        </section>
      ))}
      <p>
        <a href="#main" className="link">
          {t("backToTop")}
        </a>
      </p>
    </LegalShell>
  );
}

export type ImprintData = {
  title: string;
  source: "configured" | "example";
  details: { label: string; value: string; kind: "text" | "email" | "phone" }[];
  missing: string[];
  text: {
    intro: string;
    example: string;
    missing: string;
    detailsHeading: string;
    contactHeading: string;
    contact: string;
  };
};

export function ImprintPage({ title, source, details, missing, text }: ImprintData) {
  return (
    <LegalShell title={title} updated={null}>
      <p>{text.intro}</p>
      {source === "example" ? (
        <p role="note" className="rounded-xl bg-amber-100 p-3 text-amber-950 ring-1 ring-amber-300">
          {text.example}
        </p>
      ) : null}
      {missing.length > 0 ? (
        <div role="note" className="rounded-xl bg-red-50 p-3 text-red-900 ring-1 ring-red-200">
          <p>{text.missing}</p>
          <ul className="mt-1 list-disc pl-6">
            {missing.map((label) => (
              <li key={label}>{label}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {details.length > 0 ? (
        <section aria-labelledby="operator-heading" className="space-y-2">
          <h2 id="operator-heading" className="text-xl font-bold text-stone-900">
            {text.detailsHeading}
          </h2>
          <dl className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
            {details.map(({ label, value, kind }) => (
              <Fragment key={label}>
                <dt className="font-semibold">{label}</dt>
                <dd className="mb-2 whitespace-pre-line break-words sm:mb-0">
                  {kind === "email" ? (
                    <a href={`mailto:${value}`} className="link">
                      {value}
                    </a>
                  ) : kind === "phone" ? (
                    <a href={`tel:${value.replace(/[^+0-9]/g, "")}`} className="link">
                      {value}
                    </a>
                  ) : (
                    value
                  )}
                </dd>
              </Fragment>
            ))}
          </dl>
        </section>
      ) : null}
      <section aria-labelledby="contact-heading" className="space-y-2">
        <h2 id="contact-heading" className="text-xl font-bold text-stone-900">
          {text.contactHeading}
        </h2>
        <p>
          <RichText text={text.contact} />
        </p>
      </section>
    </LegalShell>
  );
}
