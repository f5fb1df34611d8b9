import { useEffect, useState } from "react";

/**
 * Moves the focus, after the next render, to the element with the given id: for a control that
 * replaces the one that had the focus (an Edit button swapped for its form and back), so the
 * keyboard keeps its place instead of falling to the page's body.
 */
export function useFocusAfterRender() {
  const [id, setId] = useState<string | null>(null);
  useEffect(() => {
    if (id === null) return;
    document.getElementById(id)?.focus();
    setId(null);
  }, [id]);
  return setId;
}

/**
 * Escape in an inline form cancels it (unless a popup inside it took the key first). The field
 * loses the focus before the form goes: a field removed while focused fires its blur late, and a
 * form that asks conform for validate-on-blur (useValibotForm's default is on submit) would then
 * post the detached form as a document submission.
 */
export function cancelOnEscape(cancel: () => void) {
  return (event: React.KeyboardEvent) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    event.preventDefault();
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    cancel();
  };
}
