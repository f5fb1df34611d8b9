/**
 * A write refused field by field by a rule only the server can check (the ledger, a number
 * already used): thrown by a model before or instead of its batch, nothing changed. The form
 * actions answer it 400 with the errors on their fields (what the user typed kept), the JSON API
 * 400 with the same field errors (docs/architecture.md §8).
 */
export class FieldsRefused extends Error {
  constructor(readonly fieldErrors: Record<string, string[]>) {
    super(Object.values(fieldErrors).flat().join(" "));
    this.name = "FieldsRefused";
  }
}
