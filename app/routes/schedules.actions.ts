import { scheduleAction } from "~/actions/schedule-action.server";
import type { Route } from "./+types/schedules.actions";

/** POST only: the schedule writes the lists, modals and bulk buttons post with their fetchers. */
export async function action(args: Route.ActionArgs) {
  return scheduleAction(args);
}
