import { monthLabel } from "~/domain/archive-months";

/**
 * The download of one archived month (/report/archive/:month, docs/decisions/022), named as the
 * timeline and the report name it: "Jan 2025 (42)".
 */
export function ArchiveMonthLink({ month, count }: { month: string; count: number }) {
  return (
    <a href={`/report/archive/${month}`} download className="text-primary underline-offset-4 hover:underline">
      {`${monthLabel(month)} (${count})`}
    </a>
  );
}
