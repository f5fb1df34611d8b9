import { type ComponentProps, type ReactNode, useState } from "react";
import { Link } from "react-router";
import { BulkSendButton } from "~/components/bulk-send-button";

type BulkAction = Pick<ComponentProps<typeof BulkSendButton>, "intent" | "label">;

import type { ToastArea } from "~/components/toast";
import { Button } from "~/components/ui/button";
import { SelectAllCheckbox } from "~/components/ui/select-all-checkbox";
import { SettingsIcon } from "~/components/ui/settings-icon";
import { toggleAll, toggleOne } from "~/ui/selection";

/** A labelled value of a row: a table column after 'Name', and a line of a card's facts. */
export interface Field<T> {
  label: string;
  value: (item: T) => ReactNode;
  /** Only on a card (narrow screens), not a column of the wide table. */
  cardOnly?: boolean;
}

function RowCheckbox({ name, checked, onChange }: { name: string; checked: boolean; onChange: () => void }) {
  return (
    <input
      type="checkbox"
      // Sized and coloured by .list-table (app.css): one attribute less on every row.
      aria-label={`Select ${name}`}
      checked={checked}
      onChange={onChange}
    />
  );
}

function ConfigureButton({ name, onClick, onIntent }: { name: string; onClick: () => void; onIntent?: () => void }) {
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={onClick}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      aria-label={`Configure ${name}`}
    >
      <SettingsIcon /> Configure
    </Button>
  );
}

/**
 * A selectable list card (docs/product-spec.md §2): header and actions, then one table whose rows
 * are cards on narrow screens (the `list-table` styles in app.css). Each row is rendered once for
 * every width.
 */
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
  bulkLinks = [],
  area,
  emptyText,
  columns,
  detail,
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
  /** The bulk actions for the selected rows (the first is the main one). */
  bulk: BulkAction | readonly BulkAction[];
  /** Bulk actions that need more than a click: a page of their own, given the selected ids. */
  bulkLinks?: readonly { label: string; to: (ids: K[]) => string }[];
  area: ToastArea;
  emptyText: string;
  /** The columns after 'Name'; on a card, labelled lines. */
  columns: Field<T>[];
  /** The line under the name. */
  detail: (item: T) => ReactNode;
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
      <div className="flex flex-wrap items-center gap-2">
        {(Array.isArray(bulk) ? bulk : [bulk]).map((b: BulkAction, i: number) => (
          <BulkSendButton
            key={b.intent}
            {...b}
            secondary={i > 0}
            ids={selectedIds}
            area={area}
            onDone={() => setSelected(new Set())}
          />
        ))}
        {bulkLinks.map((l) => (
          <Button key={l.label} asChild variant="outline">
            <Link to={l.to(selectedIds)}>{l.label}</Link>
          </Button>
        ))}
      </div>
    ) : (
      createAction
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
          {/* How many rows the bulk action will act on; announced as it changes. */}
          <p className="text-sm text-muted" aria-live="polite" data-testid={`${headingId}-selected`}>
            {selectedIds.length > 0 ? `${selectedIds.length} of ${ids.length} selected` : ""}
          </p>
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
        <table className="list-table selectable" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th className="w-8">
                <span className="sr-only">Selected</span>
              </th>
              <th>Name</th>
              {columns.map((c) => (
                <th key={c.label} className={c.cardOnly ? "md:hidden" : undefined}>
                  {c.label}
                </th>
              ))}
              <th>
                <span className="sr-only">Configure</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => {
              const id = idOf(item);
              const name = nameOf(item);
              return (
                <tr key={id}>
                  <td>
                    <RowCheckbox
                      name={name}
                      checked={selected.has(id)}
                      onChange={() => setSelected((s) => toggleOne(s, id))}
                    />
                  </td>
                  <td className="list-name">
                    <div className="font-semibold [overflow-wrap:anywhere]">{name}</div>
                    {detail(item)}
                  </td>
                  {columns.map((c) => (
                    <td key={c.label} data-label={c.label} className={c.cardOnly ? "md:hidden" : undefined}>
                      {c.value(item)}
                    </td>
                  ))}
                  <td className="list-action">
                    <ConfigureButton name={name} onClick={() => onConfigure(id)} onIntent={onConfigureIntent} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {children}
    </section>
  );
}
