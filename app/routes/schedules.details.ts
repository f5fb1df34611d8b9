import { scheduleDetails } from "~/actions/schedule-details.server";
import type { Route } from "./+types/schedules.details";

export const loader = (args: Route.LoaderArgs) => scheduleDetails(args);
