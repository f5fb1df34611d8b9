import { ChevronDown, Loader2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { openInvoicesLabel } from "~/components/debtors/open-invoices";
import { cn } from "~/ui/class-names";

export interface DebtorOption {
  id: number;
  fullName: string;
  email: string;
  /** Invoices still owed (/debtors/options answers it): shown to tell debtors of one name apart. */
  openInvoices?: number;
}

/** How long typing pauses before the search goes out. */
const SEARCH_DELAY_MS = 150;

/**
 * The dashboard's debtor dropdown: an editable combobox (WAI-ARIA 1.2 pattern)
 * that searches every one of the user's debtors through /debtors/options?q= (at most 20 answers a
 * search), so a debtor past the first page can be chosen. The selected debtor is always shown in
 * the field. Keyboard: type to search, ↓/↑ to move, Enter to choose, Escape to close.
 */
export function DebtorCombobox({
  id,
  label,
  selected,
  disabled = false,
  invalid = false,
  errorId,
  labelClassName = "text-sm text-muted",
  emptyText = "Search debtors",
  onSelect,
}: {
  id: string;
  label: string;
  selected: DebtorOption | null;
  disabled?: boolean;
  /** A form's field error is shown: the field says so (aria-invalid) and points at it. */
  invalid?: boolean;
  errorId?: string;
  /** The label's look: a filter's muted one by default, a form field's in a form. */
  labelClassName?: string;
  /** What the empty field says when no debtor is chosen (the report: "All debtors"). */
  emptyText?: string;
  onSelect: (option: DebtorOption) => void;
}) {
  const listId = useId();
  const statusId = useId();
  const [text, setText] = useState(selected?.fullName ?? "");
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [options, setOptions] = useState<DebtorOption[] | null>(null);
  const [active, setActive] = useState(-1);
  const [failed, setFailed] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  // Another debtor chosen (here or by the URL): the field shows their name.
  const [shownFor, setShownFor] = useState(selected?.id ?? null);
  if ((selected?.id ?? null) !== shownFor) {
    setShownFor(selected?.id ?? null);
    setText(selected?.fullName ?? "");
  }

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/debtors/options?q=${encodeURIComponent(query)}`, { signal: controller.signal })
        .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
        .then((data: unknown) => {
          const body = data as { options: DebtorOption[] };
          setOptions(body.options);
          setFailed(false);
          setActive(body.options.length > 0 ? 0 : -1);
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          console.error("[dunly] debtor search failed", error);
          setFailed(true);
          setOptions([]);
        });
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [open, query]);

  const close = (restore: boolean) => {
    setOpen(false);
    setActive(-1);
    if (restore) setText(selected?.fullName ?? "");
  };
  const choose = (option: DebtorOption) => {
    setText(option.fullName);
    setOpen(false);
    setActive(-1);
    if (option.id !== selected?.id) onSelect(option);
  };
  const openWith = (q: string) => {
    setQuery(q);
    setOptions(null);
    setOpen(true);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    const count = options?.length ?? 0;
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        if (!open) openWith("");
        else if (count > 0) setActive((i) => (i + 1) % count);
        break;
      case "ArrowUp":
        event.preventDefault();
        if (!open) openWith("");
        else if (count > 0) setActive((i) => (i <= 0 ? count - 1 : i - 1));
        break;
      case "Enter": {
        const option = open && options ? options[active] : undefined;
        if (option) {
          event.preventDefault();
          choose(option);
        }
        break;
      }
      case "Escape":
        if (open) {
          event.preventDefault();
          close(true);
        }
        break;
    }
  };

  const loading = open && options === null;
  const activeOption = open && options ? options[active] : undefined;
  const status = !open
    ? ""
    : loading
      ? "Searching…"
      : failed
        ? "The debtors could not be loaded."
        : options?.length === 0
          ? "No debtors found"
          : `${options?.length} ${options?.length === 1 ? "debtor" : "debtors"} found`;

  return (
    <div className="relative flex min-w-56 flex-col gap-1">
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
      <div className="relative">
        <input
          ref={input}
          id={id}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={activeOption ? `${listId}-${activeOption.id}` : undefined}
          aria-describedby={errorId ? `${statusId} ${errorId}` : statusId}
          aria-invalid={invalid || undefined}
          autoComplete="off"
          spellCheck={false}
          disabled={disabled}
          placeholder={disabled ? "No debtors yet" : emptyText}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            openWith(event.target.value.trim());
          }}
          onKeyDown={onKeyDown}
          onBlur={() => close(true)}
          className="h-10 w-full rounded-md border border-border bg-background pl-3 pr-9 text-sm aria-[invalid=true]:border-danger"
        />
        <button
          type="button"
          tabIndex={-1}
          aria-label={open ? "Close the debtor list" : "Show debtors"}
          disabled={disabled}
          // Keeps the focus in the field (its blur would close the list first).
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => {
            if (open) close(true);
            else {
              openWith("");
              input.current?.focus();
            }
          }}
          className="absolute inset-y-0 right-0 flex w-9 items-center justify-center text-muted"
        >
          {loading ? (
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
          ) : (
            <ChevronDown className="h-4 w-4" aria-hidden />
          )}
        </button>
        <div
          id={listId}
          role="listbox"
          aria-label={`${label} options`}
          hidden={!open || !options || options.length === 0}
          className="absolute z-20 mt-1 max-h-72 w-full min-w-64 overflow-auto rounded-md border border-border bg-surface py-1 shadow-lg"
        >
          {options?.map((option, i) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard chooses through the combobox field (aria-activedescendant), which keeps the focus.
            <div
              key={option.id}
              tabIndex={-1}
              id={`${listId}-${option.id}`}
              role="option"
              aria-selected={i === active}
              // The field keeps the focus; a click chooses.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(option)}
              onMouseMove={() => setActive(i)}
              className={cn(
                "cursor-pointer px-3 py-2 text-sm",
                i === active && "bg-primary text-primary-foreground",
                option.id === selected?.id && "font-semibold",
              )}
            >
              <span className="block truncate">{option.fullName}</span>
              <span className={cn("block truncate text-xs", i === active ? "opacity-90" : "text-muted")}>
                {option.openInvoices === undefined
                  ? option.email
                  : `${option.email} · ${openInvoicesLabel(option.openInvoices)}`}
              </span>
            </div>
          ))}
        </div>
      </div>
      <span id={statusId} className="sr-only" aria-live="polite">
        {status}
      </span>
    </div>
  );
}
