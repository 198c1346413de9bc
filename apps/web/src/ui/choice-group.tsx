import { cx } from '#lib/cx.ts';

/** Radio buttons drawn as a segmented choice (YES/NO, Hourly/Daily): keyboard and screen-reader native. */
export function ChoiceGroup<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string;
  name: string;
  value: T | null;
  options: ReadonlyArray<{ value: T; label: string; hint?: string; tone?: 'yes' | 'no' }>;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      <div className="grid grid-cols-2 gap-2">
        {options.map((option) => (
          <label
            key={option.value}
            className={cx(
              'flex min-h-10 cursor-pointer flex-col justify-center rounded-lg border px-3 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand',
              value === option.value
                ? option.tone === 'yes'
                  ? 'border-yes bg-yes/10 text-yes'
                  : option.tone === 'no'
                    ? 'border-no bg-no/10 text-no'
                    : 'border-brand bg-brand/10'
                : 'border-line bg-surface-2',
            )}
          >
            <input
              type="radio"
              className="sr-only"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            <span className="font-semibold">{option.label}</span>
            {option.hint && <span className="text-xs text-muted">{option.hint}</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
