import { type CalendarDate, parseDate } from "@internationalized/date";
import { CalendarDays, ChevronLeft, ChevronRight } from "lucide-react";
import { useContext, useRef, useState } from "react";
import {
  DatePicker as AriaDatePicker,
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DateSegment,
  Dialog,
  FieldError,
  Group,
  Heading,
  Label,
  Popover,
} from "react-aria-components";
import { ModalContainer } from "./modal-container";

/**
 * An accessible date field with a calendar popup (react-aria-components, a chunk of its own that
 * date-picker.tsx loads on the first interaction with its form): typed segments with
 * the spec's page steps (PageUp/PageDown) and a hidden input named `name` with the ISO date, so forms and
 * the server see "YYYY-MM-DD". No minimum or maximum: a payment due date in the past is normal (a
 * reminder for an overdue invoice), and the server takes any calendar date, so the field refuses
 * nothing the server would accept.
 */
export function DatePickerField({
  name,
  label,
  defaultValue,
  errors,
  errorId,
  defaultOpen = false,
}: {
  name: string;
  label: string;
  defaultValue?: string | null;
  /** Server or form errors, shown under the field. */
  errors?: string[];
  errorId?: string;
  /** Open the calendar at once: date-picker.tsx's stand-in "Open calendar" was pressed. */
  defaultOpen?: boolean;
}) {
  const [value, setValue] = useState<CalendarDate | null>(() => {
    try {
      return defaultValue ? parseDate(defaultValue) : null;
    } catch {
      return null;
    }
  });
  // Inside a modal, the calendar opens within it (its focus trap and Escape scope).
  const modal = useContext(ModalContainer);
  // Opened by the stand-in's button, which is gone: closing gives the focus to this one instead.
  const calendarButton = useRef<HTMLButtonElement>(null);
  const focusLost = () => !document.activeElement || document.activeElement === document.body;
  return (
    <AriaDatePicker
      name={name}
      value={value}
      onChange={setValue}
      defaultOpen={defaultOpen}
      onOpenChange={(open) => {
        if (!open) requestAnimationFrame(() => focusLost() && calendarButton.current?.focus());
      }}
      validationBehavior="aria"
      isInvalid={errors?.length ? true : undefined}
      className="group flex flex-col gap-1"
    >
      <Label className="text-sm font-medium">{label}</Label>
      <Group className="flex h-10 w-full items-center rounded-md border border-border bg-background pl-3 text-sm focus-within:ring-2 focus-within:ring-primary group-data-[invalid]:border-danger">
        <DateInput className="flex flex-1">
          {(segment) => (
            <DateSegment
              segment={segment}
              className="rounded px-0.5 tabular-nums outline-none data-[placeholder]:text-muted data-[type=literal]:px-0 focus:bg-primary focus:text-primary-foreground"
            />
          )}
        </DateInput>
        <Button
          ref={calendarButton}
          className="flex h-full items-center rounded-r-md px-3 hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-primary"
          aria-label="Open calendar"
        >
          <CalendarDays className="h-4 w-4" aria-hidden />
        </Button>
      </Group>
      <FieldError className="text-sm text-danger" />
      {errors?.length ? (
        <p id={errorId} className="text-sm text-danger" role="alert">
          {errors[0]}
        </p>
      ) : null}
      <Popover
        UNSTABLE_portalContainer={modal ?? undefined}
        className="rounded-xl border border-border bg-surface p-3 text-foreground shadow-2xl"
        placement="bottom start"
      >
        <Dialog className="outline-none" aria-label={label}>
          <Calendar className="w-72">
            <header className="mb-2 flex items-center justify-between">
              <Button slot="previous" className="rounded-md p-1 hover:bg-surface-2" aria-label="Previous month">
                <ChevronLeft className="h-5 w-5" aria-hidden />
              </Button>
              <Heading className="text-sm font-semibold" />
              <Button slot="next" className="rounded-md p-1 hover:bg-surface-2" aria-label="Next month">
                <ChevronRight className="h-5 w-5" aria-hidden />
              </Button>
            </header>
            <CalendarGrid className="w-full border-separate border-spacing-1 text-center text-sm">
              {(date) => (
                <CalendarCell
                  date={date}
                  className="flex h-9 w-9 items-center justify-center rounded-md outline-none data-[outside-month]:hidden data-[disabled]:cursor-not-allowed data-[disabled]:text-muted data-[disabled]:opacity-50 data-[focus-visible]:ring-2 data-[focus-visible]:ring-primary data-[selected]:bg-primary data-[selected]:text-primary-foreground hover:bg-surface-2"
                />
              )}
            </CalendarGrid>
          </Calendar>
        </Dialog>
      </Popover>
    </AriaDatePicker>
  );
}
