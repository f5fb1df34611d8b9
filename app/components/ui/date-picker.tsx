// Deep import, not the "lucide-react" index: see the shell chunk in vite.config.ts.
import CalendarDays from "lucide-react/icons/calendar-days";
import { type ComponentProps, Suspense, useEffect, useId, useRef, useState } from "react";
import { notOnServer, onDemand } from "~/components/on-demand";
import type { DatePickerField } from "./date-picker-field";

type Props = ComponentProps<typeof DatePickerField>;

// react-aria's date picker is most of a form page's JavaScript (about 75 KB gzip): it loads on the
// first interaction with its form, not with the page (// docs/decisions/027-what-loads-on-interaction.md).
const field = onDemand<Props>(() =>
  import.meta.env.SSR ? notOnServer() : import("./date-picker-field").then((m) => m.DatePickerField),
);
let loaded = false;
const load = () =>
  field.load().then(() => {
    loaded = true;
  });

/** The events that count as the first interaction with the form (or the field, outside a form). */
const FIRST_USE = ["pointerdown", "focusin", "keydown"] as const;

/**
 * A date field posted as `name` ("YYYY-MM-DD"). The page renders a native date input drawn like the
 * react-aria picker (the same box, "mm/dd/yyyy" and a calendar button), which works before hydration
 * and, with the browser's own calendar, without JavaScript. The first pointer down, focus or key in
 * its form fetches the react-aria picker (date-picker-field.tsx: typed segments with the spec's page
 * steps, a calendar popup, min/max messages), which takes the native field's place with the value
 * entered so far, never while the native field has the focus (then on leaving it), so nothing the
 * user types is lost. "Open calendar" pressed before that swaps at once and opens the calendar.
 */
export function DatePicker(props: Props) {
  const { name, label, defaultValue, errors, errorId } = props;
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [value, setValue] = useState(defaultValue ?? "");
  // null: the native field; else the picker, open at once when asked for by its calendar button.
  const [upgraded, setUpgraded] = useState<{ open: boolean } | null>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    // Mounted after the picker's code is here (a modal opened later): no native field in between.
    if (loaded && !element.contains(document.activeElement)) {
      setUpgraded({ open: false });
      return;
    }
    let cancelled = false;
    // Runs `then` once the native field does not have the focus: now, or when the focus has left
    // it and settled elsewhere. Not under the user's fingers.
    const whenNotFocused = (then: () => void) => {
      if (cancelled) return;
      if (element.contains(document.activeElement)) {
        element.addEventListener("focusout", () => setTimeout(() => whenNotFocused(then)), { once: true });
        return;
      }
      then();
    };
    const target = element.closest("form") ?? element;
    const firstUse = () => {
      for (const type of FIRST_USE) target.removeEventListener(type, firstUse, true);
      // If it cannot be fetched, the native field stays (and the next use tries again).
      load().then(
        () => whenNotFocused(() => setUpgraded((current) => current ?? { open: false })),
        () => {
          if (!cancelled) for (const type of FIRST_USE) target.addEventListener(type, firstUse, true);
        },
      );
    };
    for (const type of FIRST_USE) target.addEventListener(type, firstUse, true);
    // Focused before hydration (or by a link's #fragment): that was the first use.
    if (target.contains(document.activeElement) && document.activeElement !== document.body) firstUse();
    return () => {
      cancelled = true;
      for (const type of FIRST_USE) target.removeEventListener(type, firstUse, true);
    };
  }, []);

  const openCalendar = () => {
    load().then(
      () => setUpgraded({ open: true }),
      () => box.current?.querySelector("input")?.showPicker?.(),
    );
  };

  const invalid = Boolean(errors?.length);
  const native = (
    <div ref={box} className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {/* The react-aria picker's box (date-picker-field.tsx), with the native field inside it. */}
      <div
        className={`flex h-10 w-full items-center rounded-md border bg-background pl-3 text-sm focus-within:ring-2 focus-within:ring-primary ${invalid ? "border-danger" : "border-border"}`}
      >
        <input
          id={id}
          type="date"
          name={name}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          className={`date-fallback h-full min-w-0 flex-1 bg-transparent tabular-nums outline-none ${value ? "" : "text-muted"}`}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
        />
        <button
          type="button"
          className="date-fallback-button flex h-full items-center rounded-r-md px-3 hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-primary"
          aria-label="Open calendar"
          onPointerEnter={field.preload}
          onClick={openCalendar}
        >
          <CalendarDays className="h-4 w-4" aria-hidden />
        </button>
      </div>
      {invalid ? (
        <p id={errorId} className="text-sm text-danger" role="alert">
          {errors?.[0]}
        </p>
      ) : null}
    </div>
  );
  if (!upgraded) return native;
  return (
    <Suspense fallback={native}>
      <field.Lazy {...props} defaultValue={value || null} defaultOpen={upgraded.open} />
    </Suspense>
  );
}
