import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("welcome", "routes/welcome.tsx"),
  route("pricing", "routes/pricing.tsx"),
  route("404", "routes/guard-404.tsx"),
  route("dashboard", "routes/dashboard.tsx"),
  route("debtors-list", "routes/debtors-list.tsx"),
  route("schedules-list", "routes/schedules-list.tsx"),
  route("schedule", "routes/schedule.tsx"),
  route("schedule/preview", "routes/schedule.preview.ts"),
  route("schedules/actions", "routes/schedules.actions.ts"),
  route("schedules/:id", "routes/schedules.details.ts"),
  route("report", "routes/report.tsx"),
  route("iam/:tab?", "routes/iam.tsx"),
  route("auth/verify", "routes/auth.verify.tsx"),
  route("auth/google", "routes/auth.google.ts"),
  route("auth/google/callback", "routes/auth.google.callback.ts"),
  route("sign-in/password", "routes/sign-in.password.tsx"),
  route("logout", "routes/logout.ts"),
  route("u/:token", "routes/unsubscribe.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
