import { compactTimeline } from "~/actions/debtor-timeline.server";
import type { Route } from "./+types/debtors.timeline";

export const loader = (args: Route.LoaderArgs) => compactTimeline(args);
