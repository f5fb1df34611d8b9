import { and, eq } from "drizzle-orm";
import { schedules } from "~/db/schema";
import { frequencyRefusal } from "~/domain/plans";
import type { EntityScope } from "~/platform/scope.server";
import { ScheduleIdSchema } from "~/schemas/ids";
import { SCHEDULE_INTENTS } from "~/schemas/intents";
import { SCHEDULE_MESSAGES } from "~/schemas/messages";
import { type ScheduleInput, ScheduleSchema } from "~/schemas/schedule";
import { createSchedule, deleteSchedule, updateSchedule } from "./writes.server";

/**
 * Schedules: every operation is the lifecycle's, which records the
 * timeline event and moves the alarm. The forms create, edit and delete (and pause, resume, send
 * now, re-send: app/actions/schedule-action.server.ts); the API offers the delete (DELETE
 * /api/schedule?Name=), the same operation.
 */
export const scheduleEntity = {
  noun: "schedule",
  intents: SCHEDULE_INTENTS,
  messages: SCHEDULE_MESSAGES,
  schemas: { form: ScheduleSchema },
  /** A schedule's id (its `Name` in the API): text the server made, only a request. */
  id: ScheduleIdSchema,
  /**
   * Refused like the lifecycle's createSchedule; past the account's cap it throws AccountCapReached;
   * a frequency the account's plan does not include is refused ('plan', docs/decisions/019).
   */
  async create(scope: EntityScope, input: ScheduleInput) {
    const refusal = frequencyRefusal(scope.accountPlan, input.frequency);
    if (refusal) return { error: "plan" as const, message: refusal };
    return createSchedule(scope, input, { max: scope.caps.schedules });
  },
  /**
   * An edit that keeps its frequency is allowed whatever the plan (a downgrade deletes nothing and
   * existing schedules keep running); a change to a frequency the plan does not include is refused.
   */
  async update(scope: EntityScope, id: string, input: ScheduleInput) {
    const refusal = frequencyRefusal(scope.accountPlan, input.frequency);
    if (refusal) {
      const current = await scope.db
        .select({ frequency: schedules.frequency })
        .from(schedules)
        .where(and(eq(schedules.ownerId, scope.ownerId), eq(schedules.id, id)))
        .get();
      if (current && (current.frequency !== input.frequency || !scope.accountPlan)) {
        return { error: "plan" as const, message: refusal };
      }
    }
    return updateSchedule(scope, id, input, { max: scope.caps.schedules });
  },
  /** The row and its 'schedule_deleted' event, then the alarm; false when it is not the owner's. */
  remove: (scope: EntityScope, id: string) => deleteSchedule(scope, id),
} as const;
