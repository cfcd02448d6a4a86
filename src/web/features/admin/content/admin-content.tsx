import { useSearchParams } from 'react-router';
import { adminSectionTitles } from '../shared/admin-layout';
import { BannerList } from './banner-list';
import { ContentPageEditor } from './content-page-editor';
import { ContentPageList } from './content-page-list';

/** Issue 5: the shop's content pages (markdown with a live preview) and the farm gallery's banners. */
export function AdminContent() {
  const [params, setParams] = useSearchParams();
  // ?page=<slug> edits a page, ?page=new writes one; the address keeps the editor open on reload.
  const page = params.get('page');
  const openPage = (slug: string | null) => setParams(slug ? { page: slug } : {});
  if (page) return <ContentPageEditor key={page} slug={page === 'new' ? null : page} onClose={(saved) => openPage(saved ?? null)} />;
  return (
    <section className="grid grid-cols-1 gap-6">
      <h1 className="text-4xl font-semibold">{adminSectionTitles['content']}</h1>
      <ContentPageList onOpen={openPage} />
      <BannerList />
    </section>
  );
}
