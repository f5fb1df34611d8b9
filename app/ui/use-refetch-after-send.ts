import { useRevalidator } from "react-router";

/** Refetch after a send so the counts catch up with the alarm (docs/product-spec.md §7: after 2 s and 4 s). */
export function useRefetchAfterSend() {
  const revalidator = useRevalidator();
  return () => {
    setTimeout(() => void revalidator.revalidate(), 2000);
    setTimeout(() => void revalidator.revalidate(), 4000);
  };
}
