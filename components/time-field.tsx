// A time of day as the pages write it everywhere else: 24-hour "HH:MM". The browser's own
// time field shows "09:00 AM" under an English (US) browser beside 24-hour times on every other
// page, so this is a text field held to the same pattern the server reads (lib/core/time.ts).
// No maxLength: it would cut "11:45 PM" to a valid "11:45" instead of refusing it.

export const TIME_PATTERN = "([01][0-9]|2[0-3]):[0-5][0-9]";

type Props = Omit<React.InputHTMLAttributes<HTMLInputElement>, "type" | "pattern"> & { name: string };

export function TimeField(props: Props) {
  return (
    <input
      type="text"
      inputMode="numeric"
      autoComplete="off"
      pattern={TIME_PATTERN}
      placeholder="HH:MM"
      title="A 24-hour time, such as 09:30 or 17:45"
      size={5}
      required
      {...props}
    />
  );
}
