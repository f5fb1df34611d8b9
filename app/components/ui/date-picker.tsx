import { type ComponentProps, Suspense, useEffect, useId, useRef, useState } from "react";
import { notOnServer, onDemand } from "~/components/on-demand";
import type { DatePickerField } from "./date-picker-field";
import { inputClass } from "./variants";

type Props = ComponentProps<typeof DatePickerField>;

// react-aria's date picker is most of a form page's JavaScript (about 75 KB gzip): not part of
// the first load (docs/architecture.md §11).
const field = onDemand<Props>(() =>
  import.meta.env.SSR ? notOnServer() : import("./date-picker-field").then((m) => m.DatePickerField),
);

/**
 * A date field posted as `name` ("YYYY-MM-DD"). The page renders a native date input, which works
 * before hydration and without JavaScript; once the page is idle the react-aria picker
 * (date-picker-field.tsx: typed segments with the spec's page steps, a calendar popup, min/max
 * messages) is loaded and takes its place with the value entered so far, never while the native
 * field has focus (then on leaving it), so nothing the user types is lost.
 */
export function DatePicker(props: Props) {
  const { name, label, defaultValue, errors, errorId } = props;
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [value, setValue] = useState(defaultValue ?? "");
  const [upgraded, setUpgraded] = useState(false);
  useEffect(() => {
    let cancelled = false;
    // Runs `then` once the native field does not have the focus: now, or when the focus has left
    // it and settled elsewhere. Not under the user's fingers.
    const whenNotFocused = (then: () => void) => {
      const element = box.current;
      if (cancelled || !element) return;
      if (element.contains(document.activeElement)) {
        element.addEventListener("focusout", () => setTimeout(() => whenNotFocused(then)), { once: true });
        return;
      }
      then();
    };
    const upgrade = () =>
      whenNotFocused(() =>
        // If it cannot be fetched, the native field stays. The user may have started typing in it
        // while the chunk was on its way: the swap waits until they leave the field, so what they
        // typed (kept in `value`) is handed over whole.
        field.load().then(
          () => whenNotFocused(() => setUpgraded(true)),
          () => {},
        ),
      );
    const idle = typeof requestIdleCallback === "function";
    const handle = idle ? requestIdleCallback(upgrade, { timeout: 2000 }) : window.setTimeout(upgrade, 200);
    return () => {
      cancelled = true;
      if (idle) cancelIdleCallback(handle);
      else window.clearTimeout(handle);
    };
  }, []);

  const invalid = Boolean(errors?.length);
  const native = (
    <div ref={box} className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type="date"
        name={name}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        className={inputClass}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
      />
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
      <field.Lazy {...props} defaultValue={value || null} />
    </Suspense>
  );
}
