import { createSchedule, deleteSchedule, updateSchedule } from "~/reminders/lifecycle.server";
import { ScheduleIdSchema } from "~/schemas/ids";
import { type ScheduleInput, ScheduleSchema } from "~/schemas/schedule";
import type { EntityScope } from "./entity.server";
import { SCHEDULE_INTENTS } from "./intents";
import { SCHEDULE_MESSAGES } from "./messages";

/**
 * Schedules (docs/architecture.md §4, §8): every operation is the lifecycle's, which records the
 * timeline event and moves the alarm. The forms create, edit and delete (and pause, resume, send
 * now, re-send: app/routes/schedule-action.server.ts); the API offers the delete (DELETE
 * /api/schedule?Name=), the same operation.
 */
export const scheduleEntity = {
  noun: "schedule",
  intents: SCHEDULE_INTENTS,
  messages: SCHEDULE_MESSAGES,
  schemas: { form: ScheduleSchema },
  /** A schedule's id (its `Name` in the API): text the server made, only a request. */
  id: ScheduleIdSchema,
  /** Refused like the lifecycle's createSchedule; past the account's cap it throws AccountCapReached. */
  create: (scope: EntityScope, input: ScheduleInput) => createSchedule(scope, input, { max: scope.caps.schedules }),
  update: (scope: EntityScope, id: string, input: ScheduleInput) =>
    updateSchedule(scope, id, input, { max: scope.caps.schedules }),
  /** The row and its 'schedule_deleted' event, then the alarm; false when it is not the owner's. */
  remove: (scope: EntityScope, id: string) => deleteSchedule(scope, id),
} as const;
