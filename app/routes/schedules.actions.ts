import type { Route } from "./+types/schedules.actions";
import { scheduleAction } from "./schedule-action.server";

/** POST only: the schedule writes the lists, modals and bulk buttons post with their fetchers. */
export async function action(args: Route.ActionArgs) {
  return scheduleAction(args);
}
