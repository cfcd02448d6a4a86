import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';

interface PromoFieldProps {
  /** The code being priced and what the server said of it. */
  result: { code: string; applied: boolean; message: string } | null;
  pending: boolean;
  onApply: (code: string | undefined) => void;
  error?: string;
}

/** One promo code per order; the quote says whether it applies, or why not. */
export function PromoField({ result, pending, onApply, error }: PromoFieldProps) {
  const [code, setCode] = useState('');
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onApply(code.trim() ? code.trim().toUpperCase() : undefined);
  };
  if (result?.applied) {
    return (
      <div className="flex items-center justify-between gap-3 rounded-lg bg-mango-50 px-3 py-2 text-sm">
        <p role="status">
          <span className="font-semibold">{result.code}</span> <span className="text-leaf-700">{result.message}</span>
        </p>
        <Button variant="ghost" className="px-3 py-1" onClick={() => onApply(undefined)}>
          Remove
        </Button>
      </div>
    );
  }
  const message = error ?? (result && !result.applied ? result.message : undefined);
  return (
    <form onSubmit={apply} noValidate className="flex items-start gap-2">
      <TextField label="Promo code" className="flex-1" value={code} maxLength={40} autoComplete="off" data-field="promoCode" onChange={(event) => setCode(event.target.value)} error={message} />
      <Button type="submit" variant="outline" className="mt-7" disabled={pending || !code.trim()}>
        {pending ? 'Checking...' : 'Apply'}
      </Button>
    </form>
  );
}
