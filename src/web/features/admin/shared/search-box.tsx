import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';

interface SearchBoxProps {
  label: string;
  /** The search in the address when the screen opens. */
  initial: string;
  onSearch: (text: string) => void;
  className?: string;
}

/** An admin list's search: sent on Enter or with the button, never on every key (the server searches). */
export function SearchBox({ label, initial, onSearch, className = '' }: SearchBoxProps) {
  const [text, setText] = useState(initial);
  return (
    <form
      role="search"
      className={`flex items-end gap-2 ${className}`}
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim());
      }}>
      <TextField label={label} className="flex-1" value={text} maxLength={100} onChange={(event) => setText(event.target.value)} />
      <Button type="submit" variant="outline">
        Search
      </Button>
    </form>
  );
}
