/**
 * A write refused field by field by a rule only the server can check (the ledger, a number
 * already used): thrown by a model before or instead of its batch, nothing changed. The form
 * actions answer it 400 with the errors on their fields (what the user typed kept), the JSON API
 * 400 with the same field errors.
 */
export class FieldsRefused extends Error {
  constructor(readonly fieldErrors: Record<string, string[]>) {
    super(Object.values(fieldErrors).flat().join(" "));
    this.name = "FieldsRefused";
  }
}

/**
 * An add refused because the account already has the same record: a debtor with the same e-mail
 * (case-insensitive). Nothing was written. The form answers with a form error and two choices
 * (add the invoice to that debtor, or add a new debtor anyway); the JSON API answers 409 with the
 * existing record's id.
 */
export class TwinFound extends Error {
  constructor(readonly existing: { id: number; fullName: string }) {
    super(`Already one of the account's records: ${existing.id}`);
    this.name = "TwinFound";
  }
}
