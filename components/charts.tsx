"use client";
import { Bar, BarChart, CartesianGrid, LabelList, ResponsiveContainer, XAxis, YAxis } from "recharts";

// Recharts draws the picture; each chart's numbers are also in a table beside it (for screen
// readers), so the drawing itself is hidden from them and never takes keyboard focus.
type Datum = { label: string; value: number };

export function Bars({ data, horizontal, color = "#0a58ca" }: { data: Datum[]; horizontal?: boolean; color?: string }) {
  const height = horizontal ? Math.max(120, data.length * 44) : 220;
  return (
    <div className="chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={data} layout={horizontal ? "vertical" : "horizontal"} accessibilityLayer={false} margin={{ top: 20, right: 24, bottom: 4, left: 4 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={!horizontal} vertical={!!horizontal} />
          {horizontal ? (
            <>
              <XAxis type="number" allowDecimals={false} tick={{ fill: "#57606a", fontSize: 12 }} />
              <YAxis type="category" dataKey="label" width={110} tick={{ fill: "#1b1f24", fontSize: 12 }} />
            </>
          ) : (
            <>
              <XAxis dataKey="label" tick={{ fill: "#1b1f24", fontSize: 12 }} interval={0} />
              <YAxis allowDecimals={false} width={32} tick={{ fill: "#57606a", fontSize: 12 }} />
            </>
          )}
          <Bar dataKey="value" fill={color} isAnimationActive={false} radius={4}>
            <LabelList dataKey="value" position={horizontal ? "right" : "top"} fill="#1b1f24" fontSize={12} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
