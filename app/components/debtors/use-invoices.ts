import { useEffect, useState } from "react";
import type { Invoice, InvoicesState } from "./invoice-view";

/**
 * The debtor's invoices from the JSON API (owner-scoped: GET /api/debtors/:id/invoices), for the
 * debtor's modal; loaded again whenever `refresh` changes or `reload` is called.
 */
export function useInvoices(debtorId: number, refresh: string) {
  const [version, setVersion] = useState(0);
  const [loaded, setLoaded] = useState<{ debtorId: number; state: NonNullable<InvoicesState> } | null>(null);
  useEffect(() => {
    // Read by the effect: a new value loads the list again.
    void refresh;
    void version;
    const controller = new AbortController();
    fetch(`/api/debtors/${debtorId}/invoices`, { headers: { Accept: "application/json" }, signal: controller.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        setLoaded({ debtorId, state: { invoices: (await res.json()) as Invoice[] } });
      })
      .catch(() => {
        if (!controller.signal.aborted) setLoaded({ debtorId, state: { error: true } });
      });
    return () => controller.abort();
  }, [debtorId, refresh, version]);
  const state: InvoicesState = loaded?.debtorId === debtorId ? loaded.state : null;
  return { state, reload: () => setVersion((n) => n + 1) };
}
