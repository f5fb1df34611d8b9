import { Link, useLocation } from "react-router";

/** Previous / 'Page n of m' / Next for a paginated list; keeps the other query parameters. */
export function Pager({ page, pages }: { page: number; pages: number }) {
  const { search } = useLocation();
  if (pages <= 1) return null;
  const to = (n: number) => {
    const params = new URLSearchParams(search);
    params.set("page", String(n));
    return `?${params}`;
  };
  return (
    <nav aria-label="Pages" className="flex items-center justify-center gap-4 text-sm">
      {page > 1 ? <Link to={to(page - 1)}>Previous</Link> : <span className="text-muted">Previous</span>}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? <Link to={to(page + 1)}>Next</Link> : <span className="text-muted">Next</span>}
    </nav>
  );
}
