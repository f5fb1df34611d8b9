import { Settings2 } from "lucide-react";
import { type ComponentProps, Fragment, type ReactNode, useState } from "react";
import { BulkSendButton } from "~/components/bulk-send-button";
import type { ToastArea } from "~/components/toast";
import { Button } from "~/components/ui/button";
import { SelectAllCheckbox } from "~/components/ui/select-all-checkbox";
import { toggleAll, toggleOne } from "~/lib/selection";
import { cn } from "~/lib/utils";

/** A labelled value of a row: a table column after 'Name', or a line of a card's facts. */
export interface Field<T> {
  label: string;
  value: (item: T) => ReactNode;
}

function RowCheckbox({
  name,
  checked,
  onChange,
  className,
}: {
  name: string;
  checked: boolean;
  onChange: () => void;
  className?: string;
}) {
  return (
    <input
      type="checkbox"
      className={cn(className, "h-4 w-4 accent-[var(--primary)]")}
      aria-label={`Select ${name}`}
      checked={checked}
      onChange={onChange}
    />
  );
}

function ConfigureButton({
  name,
  onClick,
  onIntent,
  className,
}: {
  name: string;
  onClick: () => void;
  onIntent?: () => void;
  className?: string;
}) {
  return (
    <Button
      variant="outline"
      size="sm"
      className={className}
      onClick={onClick}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      aria-label={`Configure ${name}`}
    >
      <Settings2 className="h-4 w-4" aria-hidden /> Configure
    </Button>
  );
}

/** A selectable list card (docs/product-spec.md §2): header and actions, then a table (wide) or cards (narrow). */
export function SelectableTable<T, K extends string | number>({
  headingId,
  heading,
  headingLevel = 2,
  selectAllLabel,
  items,
  idOf,
  nameOf,
  filter,
  createAction,
  bulk,
  area,
  emptyText,
  columns,
  rowDetail,
  cardDetail,
  cardFacts = columns,
  onConfigure,
  onConfigureIntent,
  children,
}: {
  headingId: string;
  heading: string;
  headingLevel?: 1 | 2;
  selectAllLabel: string;
  items: T[];
  idOf: (item: T) => K;
  nameOf: (item: T) => string;
  /** Shown before the actions, e.g. a period dropdown. */
  filter?: ReactNode;
  /** Shown while no row is selected; the bulk send replaces it otherwise. */
  createAction: ReactNode;
  /** The bulk send for the selected rows. */
  bulk: Pick<ComponentProps<typeof BulkSendButton>, "intent" | "label">;
  area: ToastArea;
  emptyText: string;
  columns: Field<T>[];
  /** The line under the name in the table. */
  rowDetail: (item: T) => ReactNode;
  /** The line under the name on a card. */
  cardDetail: (item: T) => ReactNode;
  /** A card's facts; the table's columns unless given. */
  cardFacts?: Field<T>[];
  onConfigure: (id: K) => void;
  /** Hover or focus on a Configure button: the modal's code can start loading. */
  onConfigureIntent?: () => void;
  /** The modals. */
  children?: ReactNode;
}) {
  const [selected, setSelected] = useState<Set<K>>(new Set());
  const ids = items.map(idOf);
  const selectedIds = ids.filter((id) => selected.has(id));
  const Heading = headingLevel === 1 ? "h1" : "h2";
  const action =
    selectedIds.length > 0 ? (
      <BulkSendButton {...bulk} ids={selectedIds} area={area} onDone={() => setSelected(new Set())} />
    ) : (
      createAction
    );
  const checkbox = (item: T, className?: string) => (
    <RowCheckbox
      name={nameOf(item)}
      className={className}
      checked={selected.has(idOf(item))}
      onChange={() => setSelected((s) => toggleOne(s, idOf(item)))}
    />
  );

  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-border bg-surface p-4 sm:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <SelectAllCheckbox
            label={selectAllLabel}
            total={ids.length}
            selectedCount={selectedIds.length}
            onToggle={() => setSelected((s) => toggleAll(s, ids))}
          />
          <Heading id={headingId} className="text-xl font-bold">
            {heading}
          </Heading>
        </div>
        {filter ? (
          <div className="flex flex-wrap items-center gap-2">
            {filter}
            {action}
          </div>
        ) : (
          action
        )}
      </div>

      {items.length === 0 ? (
        <p className="py-8 text-center text-muted">{emptyText}</p>
      ) : (
        <>
          <table className="hidden w-full text-left text-sm md:table">
            <thead className="border-b border-border text-muted">
              <tr>
                <th className="w-8 py-2">
                  <span className="sr-only">Selected</span>
                </th>
                <th className="py-2">Name</th>
                {columns.map((c) => (
                  <th key={c.label} className="py-2">
                    {c.label}
                  </th>
                ))}
                <th className="py-2">
                  <span className="sr-only">Configure</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={idOf(item)} className="border-b border-border last:border-0">
                  <td className="py-3">{checkbox(item)}</td>
                  <td className="py-3">
                    <div className="font-semibold">{nameOf(item)}</div>
                    {rowDetail(item)}
                  </td>
                  {columns.map((c) => (
                    <td key={c.label} className="py-3">
                      {c.value(item)}
                    </td>
                  ))}
                  <td className="py-3 text-right">
                    <ConfigureButton
                      name={nameOf(item)}
                      onClick={() => onConfigure(idOf(item))}
                      onIntent={onConfigureIntent}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul className="flex flex-col gap-3 md:hidden" aria-label={heading}>
            {items.map((item) => (
              <li key={idOf(item)} className="rounded-lg border border-border bg-background p-4">
                <div className="flex items-start gap-3">
                  {checkbox(item, "mt-1")}
                  <div className="min-w-0 flex-1">
                    <div className="font-semibold">{nameOf(item)}</div>
                    {cardDetail(item)}
                    <dl className="mt-2 grid grid-cols-2 gap-1 text-sm">
                      {cardFacts.map((f) => (
                        <Fragment key={f.label}>
                          <dt className="text-muted">{f.label}</dt>
                          <dd>{f.value(item)}</dd>
                        </Fragment>
                      ))}
                    </dl>
                  </div>
                </div>
                <ConfigureButton
                  name={nameOf(item)}
                  className="mt-3 w-full"
                  onClick={() => onConfigure(idOf(item))}
                  onIntent={onConfigureIntent}
                />
              </li>
            ))}
          </ul>
        </>
      )}
      {children}
    </section>
  );
}
