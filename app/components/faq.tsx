import { ChevronDown } from "lucide-react";

/**
 * A collapsible FAQ: one native <details> per question, so it needs no JavaScript (it opens before
 * hydration and without scripts), each question is a focusable summary that Enter and Space toggle,
 * and screen readers announce it expanded or collapsed. Several can be open at once.
 */
export function Faq({ items, title, id }: { items: readonly { q: string; a: string }[]; title: string; id?: string }) {
  return (
    <section id={id} aria-labelledby={id ? `${id}-title` : undefined} className="mx-auto w-full max-w-3xl px-4 py-16">
      <h2 id={id ? `${id}-title` : undefined} className="mb-8 text-center text-3xl font-bold">
        {title}
      </h2>
      <div className="flex flex-col gap-3">
        {items.map((item) => (
          <details key={item.q} className="group rounded-lg border border-border bg-surface">
            <summary className="flex w-full cursor-pointer list-none items-center justify-between gap-4 px-4 py-3 text-left font-semibold [&::-webkit-details-marker]:hidden">
              {item.q}
              <ChevronDown className="h-5 w-5 shrink-0 transition-transform group-open:rotate-180" aria-hidden />
            </summary>
            <p className="px-4 pb-4 text-muted">{item.a}</p>
          </details>
        ))}
      </div>
    </section>
  );
}
