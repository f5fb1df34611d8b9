/**
 * A settings form's answer beside its button, announced when it changes: the saved message in
 * green, a refusal in red. Not once the form shows field errors (an earlier save's words would
 * contradict them), nor while it is being sent.
 */
export function FormStatus({
  result,
  busy,
  formStatus,
}: {
  result: { ok: boolean; message?: string | null } | null | undefined;
  busy: boolean;
  formStatus?: "success" | "error";
}) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={result && !result.ok ? "text-sm text-danger" : "text-sm text-success"}
    >
      {!busy && result?.message && formStatus !== "error" ? result.message : null}
    </div>
  );
}
