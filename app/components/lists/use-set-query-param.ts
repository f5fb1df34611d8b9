import { useSearchParams } from "react-router";

/** Sets one query parameter (removes it when empty) in place: no new history entry, no jump to the top. */
export function useSetQueryParam() {
  const [, setSearchParams] = useSearchParams();
  return (name: string, value: string) =>
    setSearchParams(
      (params) => {
        if (value) params.set(name, value);
        else params.delete(name);
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
}
