"use client";
import { useState } from "react";
import { DayPicker } from "react-day-picker";
import "react-day-picker/style.css";
import { TimeField } from "./time-field";

// The schedule's date and time. DayPicker (a keyboard-usable, labelled month grid: arrows move
// by day and week, Page Up/Down by month) picks the day; a 24-hour time field (TimeField) the
// time. Both are plain calendar values: the server reads them in the owner's time zone, so
// the browser's own zone never matters.

const pad = (n: number) => String(n).padStart(2, "0");
const toDay = (s: string) => {
  const [y, m, d] = s.split("-").map(Number);
  return new Date(y, m - 1, d);
};
const toYmd = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const longDay = new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric" });

/**
 * A day's button is named with its number as shown ("Tuesday 1 December 2026"), not DayPicker's
 * default "Tuesday, December 1st, 2026": a name that holds the visible "1" as a word is what
 * speech input users say to press it (WCAG 2.5.3, Label in Name).
 */
const labelDayButton = (date: Date, modifiers: { today?: boolean; selected?: boolean }) =>
  `${modifiers.today ? "Today, " : ""}${longDay.format(date)}${modifiers.selected ? ", selected" : ""}`;

export function WhenPicker({ date, time, today, timeZone, invalid }: { date: string; time: string; today: string; timeZone: string; invalid?: boolean }) {
  const [day, setDay] = useState(date);
  const chosen = toDay(day);
  return (
    <div className="when">
      <fieldset className="day-field">
        <legend>Date</legend>
        <input type="hidden" name="date" value={day} />
        <DayPicker
          mode="single"
          required
          selected={chosen}
          onSelect={(d) => d && setDay(toYmd(d))}
          defaultMonth={chosen}
          today={toDay(today)}
          disabled={{ before: toDay(today) }}
          weekStartsOn={1}
          labels={{ labelDayButton }}
        />
        <p className="help" aria-live="polite">
          {longDay.format(chosen)}
        </p>
      </fieldset>
      <div>
        <label htmlFor="time">Time</label>
        <span className="help" id="time-zone">
          24-hour, {timeZone}
        </span>
        <TimeField id="time" name="time" defaultValue={time} aria-describedby="time-zone" aria-invalid={invalid || undefined} />
      </div>
    </div>
  );
}
