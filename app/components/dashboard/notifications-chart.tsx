import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface ChartPoint {
  month: string;
  value: number;
}

/** The 'Notifications' series over six months (axes Month and Value): recharts, client only. */
export default function NotificationsChart({ data }: { data: ChartPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height={240}>
      <LineChart data={data} margin={{ top: 8, right: 16, bottom: 24, left: 8 }}>
        <CartesianGrid stroke="var(--border)" strokeDasharray="3 3" />
        <XAxis
          dataKey="month"
          stroke="var(--muted)"
          fontSize={12}
          label={{ value: "Month", position: "insideBottom", offset: -16, fill: "var(--muted)", fontSize: 12 }}
        />
        <YAxis
          allowDecimals={false}
          stroke="var(--muted)"
          fontSize={12}
          label={{ value: "Value", angle: -90, position: "insideLeft", fill: "var(--muted)", fontSize: 12 }}
        />
        <Tooltip
          contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", color: "var(--foreground)" }}
        />
        <Line
          type="monotone"
          dataKey="value"
          name="Notifications"
          stroke="var(--primary)"
          strokeWidth={2}
          dot={{ r: 3 }}
          isAnimationActive={false}
        />
      </LineChart>
    </ResponsiveContainer>
  );
}
