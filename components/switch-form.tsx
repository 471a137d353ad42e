import type { ReactNode } from "react";
import { DeliberateButton } from "./deliberate-button";

type Props = {
  action: (form: FormData) => Promise<void>;
  /** Unique on the page: names the label and the help text. */
  id: string;
  on: boolean;
  label: ReactNode;
  help: ReactNode;
  /** Hidden fields; `next` carries the value the switch would change to. */
  hidden: Record<string, string>;
  className?: string;
};

/** An on/off setting of the owner's: a form whose only button is a keyboard-usable switch. */
export function SwitchForm({ action, id, on, label, help, hidden, className = "" }: Props) {
  return (
    <form action={action} className={`switch-row ${className}`.trim()}>
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <div>
        <span className="label" id={`${id}-label`}>
          {label}
        </span>
        <span className="help" id={`${id}-help`}>
          {help} Now: <strong>{on ? "on" : "off"}</strong>.
        </span>
      </div>
      <DeliberateButton type="submit" className="switch" role="switch" aria-checked={on} aria-labelledby={`${id}-label`} aria-describedby={`${id}-help`} />
    </form>
  );
}
