import { ChevronDown } from "lucide-react";
import { Accordion } from "radix-ui";

/** A collapsible FAQ (Radix Accordion: keyboard and screen-reader friendly). */
export function Faq({ items, title, id }: { items: readonly { q: string; a: string }[]; title: string; id?: string }) {
  return (
    <section id={id} aria-labelledby={id ? `${id}-title` : undefined} className="mx-auto w-full max-w-3xl px-4 py-16">
      <h2 id={id ? `${id}-title` : undefined} className="mb-8 text-center text-3xl font-bold">
        {title}
      </h2>
      <Accordion.Root type="multiple" className="flex flex-col gap-3">
        {items.map((item, i) => (
          <Accordion.Item key={item.q} value={`item-${i}`} className="rounded-lg border border-border bg-surface">
            <Accordion.Header>
              <Accordion.Trigger className="group flex w-full items-center justify-between gap-4 px-4 py-3 text-left font-semibold">
                {item.q}
                <ChevronDown
                  className="h-5 w-5 shrink-0 transition-transform group-data-[state=open]:rotate-180"
                  aria-hidden
                />
              </Accordion.Trigger>
            </Accordion.Header>
            <Accordion.Content className="px-4 pb-4 text-muted">{item.a}</Accordion.Content>
          </Accordion.Item>
        ))}
      </Accordion.Root>
    </section>
  );
}
