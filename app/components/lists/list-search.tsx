import { Search } from "lucide-react";
import { Form, Link, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { LabeledSelect } from "~/components/ui/labeled-select";
import type { SortDirection } from "~/domain/list-params";

/**
 * The search box and order of a list page: a GET form, so the search, the
 * order and the page live in the URL and it works without JavaScript. A new search or order starts
 * on page 1; the list's other filters (`keep`, e.g. debtor and period) stay.
 */
export function ListSearch<K extends string>({
  id,
  label,
  placeholder,
  q,
  sort,
  dir,
  sorts,
  keep = [],
}: {
  /** Prefix of the fields' ids. */
  id: string;
  /** The search box's label, e.g. 'Search debtors'. */
  label: string;
  placeholder: string;
  q: string;
  sort: K;
  dir: SortDirection;
  /** The sort keys and their labels, in the order the select shows them. */
  sorts: readonly { value: K; label: string }[];
  /** Query parameters the form carries along unchanged. */
  keep?: readonly string[];
}) {
  const { search, pathname } = useLocation();
  const params = new URLSearchParams(search);
  const kept = keep.flatMap((name) => {
    const value = params.get(name);
    return value ? [[name, value] as const] : [];
  });
  const clear = new URLSearchParams(kept.map(([k, v]) => [k, v]));
  if (params.has("sort")) clear.set("sort", sort);
  if (params.has("dir")) clear.set("dir", dir);
  return (
    <Form
      method="get"
      role="search"
      className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-3 sm:flex-row sm:flex-wrap sm:items-end"
    >
      {kept.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="flex min-w-0 flex-1 flex-col gap-1 sm:min-w-56">
        <label htmlFor={`${id}-q`} className="text-sm text-muted">
          {label}
        </label>
        <Input
          id={`${id}-q`}
          type="search"
          name="q"
          defaultValue={q}
          // A new search replaces the field's old value (the page stays mounted on navigation).
          key={q}
          placeholder={placeholder}
          maxLength={100}
          autoComplete="off"
        />
      </div>
      <div className="grid grid-cols-2 gap-3 sm:flex">
        <LabeledSelect id={`${id}-sort`} label="Sort by" name="sort" defaultValue={sort} key={`sort-${sort}`}>
          {sorts.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </LabeledSelect>
        <LabeledSelect id={`${id}-dir`} label="Order" name="dir" defaultValue={dir} key={`dir-${dir}`}>
          <option value="asc">Ascending</option>
          <option value="desc">Descending</option>
        </LabeledSelect>
      </div>
      <div className="flex items-center gap-3">
        <Button type="submit">
          <Search className="h-4 w-4" aria-hidden />
          Search
        </Button>
        {q && (
          <Link to={`${pathname}${clear.size ? `?${clear}` : ""}`} className="text-sm text-primary underline">
            Clear search
          </Link>
        )}
      </div>
    </Form>
  );
}
