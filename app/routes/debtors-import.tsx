import { useId, useState } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { RouteError } from "~/components/route-error";
import { SubmitButton } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { getDb } from "~/db/client.server";
import {
  debtorsCapRefusal,
  type Imported,
  ImportNumberTaken,
  importDebtors,
  importLookup,
} from "~/debtors/index.server";
import { AccountCapReached } from "~/domain/account-caps";
import type { Cadence } from "~/domain/cadence";
import { joinPreview } from "~/domain/cadence-plan";
import { formatCount } from "~/domain/intl";
import { LANGUAGE_NAMES } from "~/domain/languages";
import { amountExample } from "~/domain/number-locale";
import { parseMobile } from "~/domain/phone";
import { localDateString } from "~/domain/schedule-time";
import { STRATEGIES } from "~/domain/strategies";
import { safeTimeZone } from "~/domain/time-zone";
import { IMPORT_TOO_LARGE, MAX_IMPORT_BYTES } from "~/domain/upload-limits";
import { intentOf, readForm } from "~/platform/action-result.server";
import { requestNumberLocale } from "~/platform/locale.server";
import { entityScope } from "~/platform/scope.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import { getAccountCadence, joinAutopilot, replanDueSchedules } from "~/reminders/index.server";
import {
  dateExample,
  IMPORT_FIELDS,
  type ImportColumn,
  type ImportDebtor,
  type ImportField,
  type ImportInvoice,
  type ImportPreview,
  type ImportRow,
  importKeys,
  MAX_IMPORT_ROWS,
  mappingFieldName,
  mappingOfForm,
  parseDebtorCsv,
  planImport,
} from "~/schemas/csv-import";
import { IMPORT_INTENTS } from "~/schemas/intents";
import { SOMETHING_WRONG } from "~/schemas/messages";
import { useLocale } from "~/ui/root-data";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/debtors-import";

/** The multipart envelope and the form's other fields, on top of the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
/** Rows the preview lists besides those with problems (all of which it lists, up to the next limit). */
const PREVIEW_OK_ROWS = 100;
const PREVIEW_PROBLEM_ROWS = 1000;
/** Skipped rows the result lists. */
const RESULT_SKIPPED_ROWS = 1000;

const NO_CSV = "Please choose a CSV file or paste its text.";
const CHOOSE_COLUMNS = "Please choose what the file's columns import as: see Columns below.";
const COLUMNS_CHANGED =
  "You changed the columns, so nothing was imported yet: here are the rows with your new columns.";
const NUMBER_TAKEN_MEANWHILE =
  "An invoice number of the file was used by another invoice of yours meanwhile. Nothing was imported: please preview the file again.";

export async function loader({ context, url }: Route.LoaderArgs) {
  await requireUser(context, url);
  return { maxRows: MAX_IMPORT_ROWS };
}

/** A row as the preview and the result show it. */
type ShownRow = Omit<ImportRow, "debtor" | "invoice">;

interface Answer {
  intent: string;
  ok: boolean;
  message: string | null;
  /** The CSV text, carried back for the confirm (re-parsed and re-validated then). */
  csv?: string;
  /** The pasted text, to show again when the preview refused it. */
  pasted?: string;
  /** The file's columns and what each imports as, with `csv`: the page's mapping. */
  columns?: ImportColumn[];
  /** Why the mapping cannot stand: no row is read until it can. */
  columnErrors?: string[];
  preview?: {
    total: number;
    /** Rows that would be imported, each an invoice. */
    valid: number;
    errors: number;
    duplicates: number;
    /** The debtors the import adds, and how many of the user's debtors get invoices. */
    newDebtors: number;
    existingDebtors: number;
    rows: ShownRow[];
    hidden: number;
    /** The debtors limit the confirm would refuse the file by (the plan's or the account's), told at once. */
    overLimit?: string;
  };
  skipped?: { rows: ShownRow[]; total: number };
}

const answer = (body: Answer, status = 200) => data(body, { status });

/**
 * The mapping as one string ("name,email,,amount"): the page sends the one it previewed with the
 * confirm, so an import never uses columns the user has not seen the rows of.
 */
const mappingKey = (columns: readonly ImportColumn[]) => columns.map((c) => c.field ?? "").join(",");

/**
 * A row as the preview shows it: every column it imports; for a row to import, each value as it
 * will be (a blank currency its debtor's or the account's, a blank issue date today, a blank due
 * date the issue date, the kind, strategy and zone of the debtor it is an invoice of).
 */
const shown = ({ debtor, invoice, ...row }: ImportRow): ShownRow => {
  // One of the user's debtors: their own currency, kind, strategy and zone, which the import does not read.
  const theirs = invoice?.debtorId !== undefined ? "the debtor's" : null;
  const strategy = STRATEGIES.find((s) => s.value === debtor?.activeStrategy)?.label;
  return {
    ...row,
    currency: row.currency || invoice?.currency || theirs || debtor?.currency || "",
    issuedOn: row.issuedOn || invoice?.issuedOn || "",
    dueOn: row.dueOn || invoice?.dueOn || "",
    kind: theirs || debtor?.kind || row.kind,
    strategy: theirs || strategy || row.strategy,
    timeZone: theirs || debtor?.timeZone || row.timeZone,
    language: theirs || (debtor?.language ? LANGUAGE_NAMES[debtor.language] : "") || row.language,
    contactName: theirs || debtor?.contactName || row.contactName,
    phone: theirs || debtor?.phone || row.phone,
  };
};

/** The CSV text of the form: the chosen file, or else the pasted text. */
async function csvOf(formData: FormData): Promise<{ text: string; pasted: string } | { error: string }> {
  const file = formData.get("file");
  const pasted = String(formData.get("csv") ?? "");
  if (file instanceof File && file.size > 0) {
    if (file.size > MAX_IMPORT_BYTES) return { error: IMPORT_TOO_LARGE };
    return { text: await file.text(), pasted: "" };
  }
  if (pasted.trim() === "") return { error: NO_CSV };
  return { text: pasted, pasted };
}

function previewOf(preview: ImportPreview): NonNullable<Answer["preview"]> {
  const problems = preview.rows.filter((r) => r.status !== "ok");
  const listed = new Set([
    ...problems.slice(0, PREVIEW_PROBLEM_ROWS),
    ...preview.rows.filter((r) => r.status === "ok").slice(0, PREVIEW_OK_ROWS),
  ]);
  const rows = preview.rows.filter((r) => listed.has(r)).map(shown);
  return {
    total: preview.rows.length,
    valid: preview.valid,
    errors: problems.filter((r) => r.status === "error").length,
    duplicates: problems.filter((r) => r.status === "duplicate").length,
    newDebtors: preview.debtors.length,
    existingDebtors: preview.existingDebtors,
    rows,
    hidden: preview.rows.length - rows.length,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * What an import did: "Imported 3 debtors." when each row was a debtor of its own (a file of
 * debtors), otherwise the invoices and whose they are.
 */
function importedMessage(added: Imported, existingDebtors: number) {
  if (added.invoices === added.debtors) return `Imported ${plural(added.debtors, "debtor")}.`;
  const whose = [
    added.debtors > 0 ? plural(added.debtors, "new debtor") : null,
    existingDebtors > 0 ? `${plural(existingDebtors, "debtor")} you already had` : null,
  ].filter(Boolean);
  return `Imported ${plural(added.invoices, "invoice")} for ${whose.join(" and ")}.`;
}

/**
 * import-preview parses and validates the CSV and answers the preview, writing nothing;
 * import-confirm parses and validates the same text again (the preview is never trusted) and adds
 * the valid rows, all or none within the account's cap: new debtors with their invoices, and
 * invoices of the user's debtors the rows' addresses match.
 */
export async function action({ context, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const form = await readForm(request, {
    maxBytes: MAX_IMPORT_BYTES + FORM_OVERHEAD_BYTES,
    tooLarge: { intent: IMPORT_INTENTS.preview, message: IMPORT_TOO_LARGE },
  });
  if ("refused" in form) return form.refused;
  const intent = intentOf(form.formData);
  if (intent !== IMPORT_INTENTS.preview && intent !== IMPORT_INTENTS.confirm) {
    return answer({ intent, ok: false, message: SOMETHING_WRONG }, 400);
  }
  const source = await csvOf(form.formData);
  if ("error" in source) return answer({ intent, ok: false, message: source.error }, 400);
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const timeZone = requestTimeZone(request);
  // Rows of a new debtor without a currency are in the account's.
  const parsed = parseDebtorCsv(source.text, {
    // The columns the user chose in the preview; a first preview guesses them from the header.
    columns: mappingOfForm(form.formData),
    timeZone,
    today: localDateString(Date.now(), timeZone),
    currency: user.defaultCurrency,
    // Amounts in the user's number format ("1.234,56"), an ambiguous one refused.
    locale: requestNumberLocale(request, user),
    // A mobile of its country, in E.164 (decisions/069): the library runs here, on the server.
    mobile: parseMobile,
  });
  const preview = planImport(
    parsed,
    parsed.fileErrors.length > 0 || parsed.columnErrors.length > 0
      ? { existing: new Map(), takenNumbers: new Map(), maxInvoices: 0 }
      : await importLookup(db, user.id, importKeys(parsed)),
  );
  const [fileError] = preview.fileErrors;
  if (fileError) return answer({ intent, ok: false, message: fileError, pasted: source.pasted }, 400);
  const { columns, columnErrors } = preview;
  if (columnErrors.length > 0) {
    return answer({ intent, ok: false, message: CHOOSE_COLUMNS, csv: source.text, columns, columnErrors }, 400);
  }
  const previewed = form.formData.get("previewed");
  const changed =
    intent === IMPORT_INTENTS.confirm && typeof previewed === "string" && previewed !== mappingKey(columns);

  if (intent === IMPORT_INTENTS.preview || changed) {
    const p = previewOf(preview);
    let message =
      p.valid === p.total
        ? `${plural(p.total, "row is", "rows are")} ready to import.`
        : `${formatCount(p.valid)} of ${plural(p.total, "row")} can be imported; the others will be skipped.`;
    // The confirm refuses the whole file past the debtors limit (docs/decisions/019): the preview
    // says so before the user confirms, not after.
    if (p.newDebtors > 0) {
      const { caps, capMessages } = entityScope(env, config, user, request);
      const refusal = await debtorsCapRefusal(db, user.id, p.newDebtors, caps.debtors, capMessages.debtors);
      if (refusal) {
        p.overLimit = `${refusal.error.message} This file adds ${plural(p.newDebtors, "new debtor")}; you have ${formatCount(refusal.have)}.`;
        message = `${plural(p.valid, "row is", "rows are")} valid, but the file adds more debtors than your limit allows: nothing can be imported.`;
      }
    }
    // Autopilot on: what importing will set going, before the user confirms.
    const account = await getAccountCadence(db, user.id);
    if (account.autopilot && !p.overLimit) message += ` ${autopilotImportNote(preview, account.cadence, Date.now())}`;
    if (changed) message = `${COLUMNS_CHANGED} ${message}`;
    return answer({ intent: IMPORT_INTENTS.preview, ok: true, message, csv: source.text, columns, preview: p });
  }

  let added: Imported;
  try {
    // The plan's debtors limit where it is lower than the account cap (docs/decisions/019).
    const { caps, capMessages } = entityScope(env, config, user, request);
    added = await importDebtors(db, user.id, preview, {
      max: caps.debtors,
      capMessage: capMessages.debtors,
      detail: "CSV import",
    });
  } catch (error) {
    const refused =
      error instanceof AccountCapReached
        ? { status: 403, message: error.message }
        : error instanceof ImportNumberTaken
          ? { status: 409, message: NUMBER_TAKEN_MEANWHILE }
          : null;
    if (!refused) throw error;
    return answer(
      { intent, ok: false, message: refused.message, csv: source.text, columns, preview: previewOf(preview) },
      refused.status,
    );
  }
  // Invoices added to debtors the account had: their due-date schedules follow them.
  const existingIds = [...new Set(preview.invoices.flatMap((i) => (i.debtorId === undefined ? [] : [i.debtorId])))];
  const scope = { env, db, ownerId: user.id, now: Date.now() };
  await replanDueSchedules(scope, existingIds);
  // Autopilot on: the debtors with open invoices and no schedule of their own follow the account's cadence.
  const joined = await joinAutopilot(scope, added.debtorIds, {
    max: entityScope(env, config, user, request).caps.schedules,
  });
  const skipped = preview.rows.filter((r) => r.status !== "ok");
  const message =
    importedMessage(added, preview.existingDebtors) +
    (joined > 0 ? ` Autopilot is now chasing ${formatCount(joined)} of them.` : "") +
    (skipped.length > 0 ? ` Skipped ${plural(skipped.length, "row")}:` : "");
  return answer({
    intent,
    ok: true,
    message,
    skipped: { rows: skipped.slice(0, RESULT_SKIPPED_ROWS).map(shown), total: skipped.length },
  });
}

/**
 * "Autopilot is on: the 3 new debtors follow your cadence. 5 of their 7 invoices are overdue: 3
 * e-mails go out today …": what confirming sets going for the file's new debtors (each in its own
 * zone, its invoices joining now); existing debtors keep a schedule of their own.
 */
function autopilotImportNote(
  plan: { debtors: readonly ImportDebtor[]; invoices: readonly ImportInvoice[] },
  cadence: Cadence,
  now: number,
) {
  let invoices = 0;
  let overdue = 0;
  let today = 0;
  for (const debtor of plan.debtors) {
    const own = plan.invoices.filter((i) => i.debtorId === undefined && i.email === debtor.email);
    const join = joinPreview(
      cadence,
      own.map((i) => ({ number: i.number, dueOn: i.dueOn, joinedAt: now })),
      safeTimeZone(debtor.timeZone),
      now,
    );
    invoices += join.invoices;
    overdue += join.overdue;
    if (join.today) today += 1;
  }
  const existing = plan.invoices.some((i) => i.debtorId !== undefined)
    ? " Existing debtors keep a schedule of their own; those without one join too."
    : "";
  if (plan.debtors.length === 0) return `Autopilot is on.${existing}`;
  return `Autopilot is on: the ${plural(plan.debtors.length, "new debtor")} will follow your cadence. ${formatCount(overdue)} of their ${plural(invoices, "invoice")} ${overdue === 1 ? "is" : "are"} overdue: ${plural(today, "e-mail")} will go out today from ${String(cadence.hour).padStart(2, "0")}:00 in each debtor's time zone, the others on their due dates.${existing}`;
}

function RowStatus({ row }: { row: ShownRow }) {
  if (row.status === "ok") {
    return (
      <div>
        <span className="font-medium text-success">OK</span>
        {row.note && <p className="text-muted">{row.note}</p>}
      </div>
    );
  }
  return (
    <div className={row.status === "error" ? "text-danger" : "text-muted"}>
      <span className="font-medium">{row.status === "error" ? "Error" : "Duplicate"}</span>
      <ul className="list-disc pl-4">
        {row.messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The Columns section: each header cell of the file with its first row's value and a select of
 * what it imports as, preselected by the guess or the user's last choice; the mapping's errors
 * above, and each column's own beside its select.
 */
function ColumnsSection({ columns, errors, busy }: { columns: ImportColumn[]; errors: string[]; busy: boolean }) {
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4"
      data-testid="import-columns"
    >
      <h2 id={`${id}-heading`} className="text-xl font-semibold">
        Columns
      </h2>
      <p className="text-sm text-muted">
        What each column of your file imports as, guessed from its header. Change a choice, then update the preview to
        see the rows with it.
      </p>
      {errors.length > 0 && (
        <div role="alert" className="rounded-md border border-danger px-4 py-3 text-sm text-danger">
          <ul className="list-disc pl-4" data-testid="import-column-errors">
            {errors.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      )}
      <ul className="grid gap-3 sm:grid-cols-2">
        {columns.map((column, index) => {
          const selectId = `${id}-column-${index}`;
          const described = [`${selectId}-sample`, column.error ? `${selectId}-error` : ""].filter(Boolean).join(" ");
          return (
            // A column is its index: headers may repeat or be blank.
            // biome-ignore lint/suspicious/noArrayIndexKey: the header's cells never move.
            <li key={index} className="flex min-w-0 flex-col gap-1">
              <label htmlFor={selectId} className="text-sm font-medium [overflow-wrap:anywhere]">
                {column.header
                  ? `Column "${column.header}" imports as`
                  : `Column ${formatCount(index + 1)} (no header) imports as`}
              </label>
              <select
                // The server's echo of a choice replaces what the select shows.
                key={column.field ?? ""}
                id={selectId}
                name={mappingFieldName(index)}
                defaultValue={column.field ?? ""}
                aria-invalid={column.error ? true : undefined}
                aria-describedby={described}
                className="h-10 w-full min-w-0 rounded-md border border-border bg-background px-3 text-sm aria-[invalid=true]:border-danger"
              >
                <option value="">Don&apos;t import</option>
                {IMPORT_FIELDS.map((f) => (
                  <option key={f.field} value={f.field}>
                    {f.label}
                  </option>
                ))}
              </select>
              <p id={`${selectId}-sample`} className="text-xs text-muted [overflow-wrap:anywhere]">
                {column.sample ? `First row: ${column.sample}` : "First row: (empty)"}
              </p>
              {column.error && (
                <p id={`${selectId}-error`} className="text-xs text-danger">
                  {column.error}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <div>
        {/* First in the form: the button Enter presses, so it never imports unseen rows. */}
        <SubmitButton variant="outline" name="intent" value={IMPORT_INTENTS.preview} busy={busy}>
          Update preview
        </SubmitButton>
      </div>
    </section>
  );
}

/** The preview's columns past the fixed ones: shown when a column of the file imports as them. */
const OPTIONAL_COLUMNS = [
  { field: "kind", label: "Kind", cell: (r: ShownRow) => r.kind },
  { field: "strategy", label: "Strategy", cell: (r: ShownRow) => r.strategy },
  { field: "timeZone", label: "Time zone", cell: (r: ShownRow) => r.timeZone },
  { field: "language", label: "Language", cell: (r: ShownRow) => r.language },
  { field: "contactName", label: "Contact person", cell: (r: ShownRow) => r.contactName },
  { field: "phone", label: "Mobile number", cell: (r: ShownRow) => r.phone },
] as const;

/**
 * The rows, with every column the import reads: name to due date always (a blank currency or due
 * date shown as it will be), the issue date, kind, strategy and zone when the file has them.
 */
function PreviewTable({ rows, fields }: { rows: ShownRow[]; fields: ReadonlySet<ImportField> }) {
  const optional = OPTIONAL_COLUMNS.filter((c) => fields.has(c.field));
  const issued = fields.has("issuedOn");
  return (
    // Focusable: on a phone the table scrolls sideways, and a keyboard must be able to scroll it.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by the keyboard.
    <section className="overflow-x-auto" aria-label="Rows of the file" tabIndex={0}>
      <table className="w-full min-w-[48rem] text-left text-sm" data-testid="import-preview">
        <caption className="sr-only">Rows of the file</caption>
        <thead className="border-b border-border text-muted">
          <tr>
            <th scope="col" className="py-2 pr-3">
              Line
            </th>
            {/* Status second: on a phone the table scrolls sideways, and what matters shows first. */}
            <th scope="col" className="py-2 pr-3">
              Status
            </th>
            <th scope="col" className="py-2 pr-3">
              Name
            </th>
            <th scope="col" className="py-2 pr-3">
              Email
            </th>
            <th scope="col" className="py-2 pr-3">
              Amount
            </th>
            <th scope="col" className="py-2 pr-3">
              Currency
            </th>
            <th scope="col" className="py-2 pr-3">
              Invoice
            </th>
            {issued && (
              <th scope="col" className="py-2 pr-3">
                Issue date
              </th>
            )}
            <th scope="col" className="py-2 pr-3">
              Due date
            </th>
            {optional.map((c) => (
              <th key={c.field} scope="col" className="py-2 pr-3">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.line} className="border-b border-border align-top last:border-0">
              <td className="py-2 pr-3">{r.line}</td>
              <td className="py-2 pr-3">
                <RowStatus row={r} />
              </td>
              <td className="break-words py-2 pr-3">{r.name}</td>
              <td className="break-all py-2 pr-3">{r.email}</td>
              <td className="py-2 pr-3">{r.amount}</td>
              <td className="py-2 pr-3">{r.currency}</td>
              <td className="break-all py-2 pr-3">{r.number}</td>
              {issued && <td className="whitespace-nowrap py-2 pr-3">{r.issuedOn}</td>}
              <td className="whitespace-nowrap py-2 pr-3">{r.dueOn}</td>
              {optional.map((c) => (
                <td key={c.field} className="break-words py-2 pr-3">
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export default function DebtorsImport({ loaderData, actionData }: Route.ComponentProps) {
  const locale = useLocale();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const busyIntent = busy ? String(navigation.formData?.get("intent") ?? "") : "";
  const fileId = useId();
  const textId = useId();
  const helpId = useId();
  const result = actionData as Answer | undefined;
  const preview =
    result?.intent === IMPORT_INTENTS.preview || result?.intent === IMPORT_INTENTS.confirm ? result.preview : null;
  const done = result?.intent === IMPORT_INTENTS.confirm && result.ok;
  // The file as read, and its columns: the page's mapping and preview, until an import or a new start.
  const mapping = result?.csv !== undefined && result.columns ? { csv: result.csv, columns: result.columns } : null;
  // A file over the limit is refused here and never sent, rather than uploaded only to be refused
  // (app/domain/upload-limits.ts).
  const [fileError, setFileError] = useState<string | null>(null);
  const notice = fileError ? { ok: false, message: fileError } : result;

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-4 px-4 py-8">
      <Link to="/debtors-list" className="text-sm text-primary underline-offset-4 hover:underline">
        Back to debtors
      </Link>
      <h1 className="text-3xl font-bold">Import debtors from CSV</h1>
      <p id={helpId} className="text-sm text-muted">
        The first row names the columns: <strong>name</strong> (or client, customer), <strong>email</strong> and{" "}
        <strong>amount</strong> (or amount due, balance; in your number format, {amountExample(locale)}), and optionally{" "}
        <strong>kind</strong> (person or company), <strong>strategy</strong> (1–3 or Polite, Middle Ground, Aggressive),{" "}
        <strong>currency</strong> (your default currency from Settings when empty), <strong>invoice number</strong>,{" "}
        <strong>issue date</strong> and <strong>due date</strong> (like{" "}
        <span className="whitespace-nowrap">2026-03-31</span> or{" "}
        <span className="whitespace-nowrap">{dateExample(locale)}</span>; today by default) and{" "}
        <strong>time zone</strong> (yours by default); the preview guesses each column from its header, and you choose
        what it imports as there. Each row is one debtor&apos;s invoice: rows with the same e-mail become invoices of
        one debtor, and a row with the e-mail of one of your debtors adds an invoice to them when it has an invoice
        number. Commas, semicolons or tabs separate the cells; a row imported before is shown as already imported and
        added nothing twice. At most {formatCount(loaderData.maxRows)} rows and 2 MB. Nothing is imported until you
        confirm the preview.
      </p>

      {notice?.message && (
        <div
          role={notice.ok ? "status" : "alert"}
          className={`rounded-md border p-3 text-sm ${notice.ok ? "border-border bg-surface" : "border-danger text-danger"}`}
          data-testid="import-message"
        >
          <p className="font-medium">{notice.message}</p>
          {done && result.skipped && result.skipped.total > 0 && (
            <ul className="mt-2 flex flex-col gap-1" data-testid="import-skipped">
              {result.skipped.rows.map((r) => (
                <li key={r.line}>{`Line ${r.line}${r.email ? ` (${r.email})` : ""}: ${r.messages.join("; ")}`}</li>
              ))}
              {result.skipped.total > result.skipped.rows.length && (
                <li>{`… and ${result.skipped.total - result.skipped.rows.length} more.`}</li>
              )}
            </ul>
          )}
          {done && (
            <Link to="/debtors-list" className="mt-2 inline-block text-primary underline-offset-4 hover:underline">
              See your debtors
            </Link>
          )}
        </div>
      )}

      {mapping && (
        <Form method="post" encType="multipart/form-data" className="flex flex-col gap-4">
          <input type="hidden" name="csv" value={mapping.csv} />
          <ColumnsSection
            columns={mapping.columns}
            errors={result?.columnErrors ?? []}
            busy={busyIntent === IMPORT_INTENTS.preview}
          />
          {preview && (
            <section
              aria-label="Preview"
              className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4"
            >
              {/* The columns these rows were read with: the confirm imports with them, or previews a change first. */}
              <input type="hidden" name="previewed" value={mapping.columns.map((c) => c.field ?? "").join(",")} />
              <h2 className="text-xl font-semibold">Preview</h2>
              <p className="text-sm" data-testid="import-counts">
                {`${plural(preview.total, "row")}: ${formatCount(preview.valid)} ready to import, ${formatCount(preview.errors)} with errors, ${plural(preview.duplicates, "duplicate")}.`}
              </p>
              {preview.valid !== preview.newDebtors && (
                <p className="text-sm" data-testid="import-grouping">
                  {`The rows ready to import are ${plural(preview.valid, "invoice")}: ${plural(preview.newDebtors, "new debtor")}, and invoices for ${formatCount(preview.existingDebtors)} of your debtors.`}
                </p>
              )}
              {preview.overLimit && (
                <p
                  role="alert"
                  className="rounded-md border border-danger px-4 py-3 text-sm text-danger"
                  data-testid="import-limit"
                >
                  {preview.overLimit}
                </p>
              )}
              <PreviewTable
                rows={preview.rows}
                fields={new Set(mapping.columns.flatMap((c) => (c.field ? [c.field] : [])))}
              />
              {preview.hidden > 0 && (
                <p className="text-sm text-muted">{`${formatCount(preview.hidden)} more rows are OK and not listed.`}</p>
              )}
              <div className="flex flex-wrap items-center gap-3">
                <SubmitButton
                  name="intent"
                  value={IMPORT_INTENTS.confirm}
                  busy={busyIntent === IMPORT_INTENTS.confirm}
                  disabled={preview.valid === 0 || Boolean(preview.overLimit) || busy}
                >
                  {preview.valid === preview.newDebtors
                    ? preview.valid === 1
                      ? "Import 1 debtor"
                      : `Import ${formatCount(preview.valid)} debtors`
                    : preview.valid === 1
                      ? "Import 1 invoice"
                      : `Import ${formatCount(preview.valid)} invoices`}
                </SubmitButton>
                <Link to="/debtors/import" className="text-sm text-primary underline-offset-4 hover:underline">
                  Start over
                </Link>
              </div>
            </section>
          )}
          {!preview && (
            <Link to="/debtors/import" className="text-sm text-primary underline-offset-4 hover:underline">
              Start over
            </Link>
          )}
        </Form>
      )}

      {!mapping && (
        <Form
          method="post"
          encType="multipart/form-data"
          className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-4"
          aria-describedby={helpId}
          // The refused file's message gives way to the server's answer about what is sent instead.
          onSubmit={() => setFileError(null)}
        >
          <input type="hidden" name="intent" value={IMPORT_INTENTS.preview} />
          <div>
            <Label htmlFor={fileId}>CSV file</Label>
            <Input
              id={fileId}
              name="file"
              type="file"
              accept=".csv,text/csv,text/plain"
              className="mt-1 py-2"
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                const tooLarge = file !== undefined && file.size > MAX_IMPORT_BYTES;
                if (tooLarge) event.currentTarget.value = "";
                setFileError(tooLarge ? IMPORT_TOO_LARGE : null);
              }}
            />
          </div>
          <div>
            <Label htmlFor={textId}>Or paste the CSV</Label>
            <textarea
              id={textId}
              name="csv"
              rows={6}
              defaultValue={result?.pasted ?? ""}
              placeholder={"name,email,amount\nAda Lovelace,ada@example.com,120.50"}
              className="mt-1 w-full rounded-md border border-border bg-background px-3 py-2 font-mono text-sm"
            />
          </div>
          <div>
            <SubmitButton busy={busyIntent === IMPORT_INTENTS.preview}>Preview</SubmitButton>
          </div>
        </Form>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the debtor import." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Import debtors");
