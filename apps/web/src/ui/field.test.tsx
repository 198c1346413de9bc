import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { Field } from './field.tsx';

afterEach(cleanup);

describe('Field', () => {
  test('The label names the control, and the hint describes it', () => {
    render(
      <Field id="f-title" label="Title" hint="Optional">
        {(control) => <input {...control} />}
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'Title' });
    expect(input).toHaveAccessibleDescription('Optional');
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  test('An error takes the hint’s place and marks the control invalid; more text can describe it too', () => {
    render(
      <Field
        id="f-target"
        label="Target"
        hint="In USD"
        error="Not a price"
        describedBy="f-gap"
        after={<p id="f-gap">+1.50%</p>}
      >
        {(control) => <input {...control} />}
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'Target' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Not a price +1.50%');
    expect(screen.queryByText('In USD')).toBeNull();
  });

  test('Without a hint nothing describes it; a select is labelled the same way', () => {
    render(
      <Field id="f-category" label="Category">
        {(control) => (
          <select {...control}>
            <option value="">Choose</option>
          </select>
        )}
      </Field>,
    );
    const select = screen.getByRole('combobox', { name: 'Category' });
    expect(select).not.toHaveAttribute('aria-describedby');
  });
});
