import { parseWithValibot } from "@conform-to/valibot";
import { data } from "react-router";
import * as v from "valibot";
import type { Db } from "~/db/client.server";
import { DebtorSchema } from "~/schemas/debtor";
import { createDebtor, deleteDebtor, updateDebtor } from "./debtor.server";

export const DEBTOR_INTENTS = ["debtor-add", "debtor-edit", "debtor-delete"] as const;

const IdField = v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.integer(), v.minValue(1));

/**
 * The debtor add, edit and delete actions shared by the dashboard and /debtors-list. The owner is
 * always the signed-in user; another user's id answers 404.
 */
export async function handleDebtorIntent(db: Db, ownerId: string, intent: string, formData: FormData) {
  if (intent === "debtor-delete") {
    const id = v.safeParse(IdField, formData.get("id"));
    if (!id.success || !(await deleteDebtor(db, ownerId, id.output))) {
      return data({ intent, ok: false as const, message: "Something went wrong", result: undefined }, { status: 404 });
    }
    return { intent, ok: true as const, message: "Debtor deleted", result: undefined };
  }
  const submission = parseWithValibot(formData, { schema: DebtorSchema });
  if (submission.status !== "success") {
    return data({ intent, ok: false as const, message: null, result: submission.reply() }, { status: 400 });
  }
  if (intent === "debtor-add") {
    await createDebtor(db, ownerId, submission.value);
    return { intent, ok: true as const, message: "Debtor added", result: submission.reply({ resetForm: true }) };
  }
  const id = v.safeParse(IdField, formData.get("id"));
  const updated = id.success ? await updateDebtor(db, ownerId, id.output, submission.value) : undefined;
  if (!updated) {
    return data(
      { intent, ok: false as const, message: "Something went wrong", result: submission.reply() },
      { status: 404 },
    );
  }
  return { intent, ok: true as const, message: "Debtor updated", result: submission.reply({ resetForm: true }) };
}
