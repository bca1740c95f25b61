// A text input that applies on Enter or blur, refusing (with the reason beside it) what `check`
// refuses. `value` is the applied text: a restored session or link sets it, and the field follows.
import { useEffect, useState } from "react";

interface Props {
  testId: string;
  label: string;
  value: string;
  placeholder: string;
  /** Why the text cannot be applied, or null when it can. */
  check: (t: string) => string | null;
  /** Called with the trimmed text when it differs from `value`. */
  onApply: (t: string) => void;
  className?: string;
  title?: string;
  size?: number;
}

export function AppliedInput({ testId, label, value, placeholder, check, onApply, className = "time-input", title, size = 8 }: Props) {
  const [text, setText] = useState(value);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setText(value), [value]);
  const apply = () => {
    const e = check(text);
    setError(e);
    if (e === null && text.trim() !== value) onApply(text.trim());
  };
  return (
    <label className={className} title={title}>
      {label}{" "}
      <input
        data-testid={testId}
        value={text}
        placeholder={placeholder}
        size={size}
        aria-invalid={error !== null}
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => e.key === "Enter" && apply()}
      />
      {error ? (
        <span className="warn-inline" role="alert">
          {" "}
          {error}
        </span>
      ) : null}
    </label>
  );
}
