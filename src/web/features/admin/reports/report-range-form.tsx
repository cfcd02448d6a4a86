import { type FormEvent, useState } from 'react';
import { type ReportGrouping, reportGroupings, reportQuerySchema } from '../../../../contracts/reports';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { type FieldErrors, fieldErrorsOf } from '../../../lib/form-errors';
import type { ReportFilters } from '../shared/reports-api';

const groupingLabels: Record<ReportGrouping, string> = { day: 'Day', week: 'Week', month: 'Month' };

interface ReportRangeFormProps {
  /** The range shown now (the server's defaults filled in). */
  initial: { from: string; to: string; groupBy: string };
  /** Field errors the server answered for the range in the address. */
  serverErrors?: FieldErrors;
  onApply: (filters: Required<ReportFilters>) => void;
}

/** From and to (New Zealand days) and the grouping, checked by the same schema as the server. */
export function ReportRangeForm({ initial, serverErrors, onApply }: ReportRangeFormProps) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const shown = { ...serverErrors, ...errors };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = reportQuerySchema.safeParse({ from: values.from || undefined, to: values.to || undefined, groupBy: values.groupBy });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    onApply(parsed.data);
  };
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));
  return (
    <form onSubmit={submit} noValidate aria-label="Report range" className="grid items-start gap-3 rounded-2xl bg-white p-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_auto]">
      <TextField label="From" type="date" value={values.from} onChange={set('from')} error={shown.from} />
      <TextField label="To" type="date" value={values.to} onChange={set('to')} error={shown.to} />
      <fieldset className="grid gap-1.5">
        <legend className="mb-1.5 text-sm font-medium">Group by</legend>
        <div className="flex gap-1 rounded-lg border border-ink-500/30 p-1">
          {reportGroupings.map((grouping) => (
            <label key={grouping} className="flex-1 cursor-pointer rounded-md px-3 py-1.5 text-center text-sm font-medium has-checked:bg-mango-500 has-focus-visible:outline-3 has-focus-visible:outline-mango-600">
              <input type="radio" name="groupBy" value={grouping} checked={values.groupBy === grouping} onChange={set('groupBy')} className="sr-only" />
              {groupingLabels[grouping]}
            </label>
          ))}
        </div>
        {shown.groupBy && (
          <p role="alert" className="text-sm text-danger-600">
            {shown.groupBy}
          </p>
        )}
      </fieldset>
      <Button type="submit" className="sm:mt-[1.625rem]">
        Show report
      </Button>
    </form>
  );
}
