import { Button } from '../../../components/ui/button';

interface PagerProps {
  total: number;
  page: number;
  pageSize: number;
  /** What is counted, singular and plural: ['order', 'orders']. */
  noun: readonly [string, string];
  onPage: (page: number) => void;
}

/** The foot of a table paged on the server: how many in all, which page, and the way to the others. */
export function Pager({ total, page, pageSize, noun, onPage }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 pt-3 text-sm">
      <p>
        {total} {total === 1 ? noun[0] : noun[1]} · page {page} of {pages}
      </p>
      <div className="flex gap-2">
        <Button variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button variant="outline" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </div>
  );
}
