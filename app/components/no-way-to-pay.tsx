import { Link } from "react-router";

/**
 * The warning before reminders go out that offer no way to pay (docs/decisions/051): no bank details, no
 * payment link, no card payments. The e-mail's only answer would be "I've paid".
 */
export function NoWayToPay() {
  return (
    <div
      role="note"
      className="mb-6 rounded-xl border border-warning bg-surface p-4 text-sm"
      data-testid="no-way-to-pay"
    >
      <p className="font-semibold">Your reminders offer no way to pay yet.</p>
      <p className="mt-1">
        Debtors could only answer “I've paid”. Add your{" "}
        <Link to="/iam/bank" className="text-primary underline">
          bank details
        </Link>
        , a{" "}
        <Link to="/iam/info" className="text-primary underline">
          payment link or card payments
        </Link>{" "}
        first, so every reminder says how to pay.
      </p>
    </div>
  );
}
